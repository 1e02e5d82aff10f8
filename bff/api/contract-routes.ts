import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { requireCaller } from '#bff/auth/guards.ts';
import { liveSignatureCode, sendSignatureCode, signWithCode } from '#bff/onboarding/contract-signature.ts';
import { contractDetailsOf, draftContractDocument, renderMemberContract } from '#bff/contract/member-contract.ts';
import { ApiError } from '#bff/http/errors.ts';
import { clientAddress, LIMITS } from '#bff/http/rate-limit.ts';
import { withinSignatureCodeCap } from '#bff/api/signature-code-cap.ts';
import { readJson } from '#bff/http/validate.ts';
import { recordOf } from '#bff/members/members.ts';
import { signedContractOf } from '#bff/privacy/contract-copy.ts';

function asciiFileName(name: string): string {
  const ascii = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `contrat-union-sincere${ascii ? `-${ascii.toLowerCase()}` : ''}.pdf`;
}

const SignBody = v.strictObject({
  code: v.pipe(v.string('Code requis'), v.trim(), v.regex(/^\d{6}$/, 'Le code contient 6 chiffres')),
});

/**
 * The member's contract (L224-90, R224-1) and its signature (decision 109):
 * - `GET /api/v1/user/contract-preview.pdf` and `GET /api/v1/user/contract.pdf`: before signature,
 *   the contract as it will be signed today, marked as a draft (deterministic: the same bytes all
 *   day); after, the stored signed copy with its evidence page, byte for byte what was mailed
 *   (decision 185);
 * - `POST /api/v1/user/contract/signature-code`: mails a one-time code bound to that document;
 * - `POST /api/v1/user/contract/sign` `{ code }`: checks it, then signs (the chart's `sub_date`).
 */
export function contractRoutes(deps: ApiDeps) {
  const memberCaller = async (c: Parameters<typeof requireCaller>[0]) => {
    const caller = await requireCaller(c, deps);
    if (caller.role === 'staff') throw new ApiError(404, 'CONTRACT_NOT_FOUND', 'Aucun contrat pour ce compte.');
    return caller;
  };
  const contractPdf = async (c: Parameters<typeof requireCaller>[0]) => {
    const caller = await memberCaller(c);
    let pdf: Uint8Array;
    const fullName = (caller.member.contract as { fullName?: string } | null)?.fullName ?? '';
    const signed = recordOf(caller.member).subscriptionDate ? await signedContractOf(deps.database.db, caller.member.id) : null;
    if (signed) pdf = signed.pdf;
    else {
      const contract = await renderMemberContract(deps.database.db, caller.member, { agency: deps.config.agency, now: deps.clock.now() });
      if (!contract) throw new ApiError(409, 'CONTRACT_NOT_READY', 'Le contrat sera disponible une fois son formulaire rempli.');
      pdf = contract.pdf;
    }
    c.header('Content-Type', 'application/pdf');
    c.header('Content-Disposition', `inline; filename="${asciiFileName(fullName)}"`);
    c.header('Cache-Control', 'private, no-store');
    c.header('X-Content-Type-Options', 'nosniff');
    return c.body(pdf as Uint8Array<ArrayBuffer>, 200);
  };
  return new Hono()
    .get('/user/contract', async (c) => {
      // What the contract page shows: the details to confirm, and the whole text before signing.
      const caller = await memberCaller(c);
      const options = { agency: deps.config.agency, now: deps.clock.now() };
      const contract = await renderMemberContract(deps.database.db, caller.member, options);
      // A code sent for this very text and still usable: the page shows its field again after a reload.
      const code =
        contract && !contract.signedAt
          ? await liveSignatureCode(deps.database.db, caller.member.id, { now: options.now, textSha256: contract.textSha256 })
          : null;
      c.header('Cache-Control', 'private, no-store');
      return c.json(
        {
          details: contractDetailsOf(caller.member),
          email: caller.member.email,
          signed: Boolean(recordOf(caller.member).subscriptionDate),
          document: contract?.document ?? null,
          // Before the details are confirmed: the same text, filled with what is already known.
          draft: contract ? null : draftContractDocument(caller.member, options),
          signatureCode: code
            ? { sentTo: caller.member.email, sentAt: code.sentAt.toISOString(), expiresAt: code.expiresAt.toISOString() }
            : null,
        },
        200,
      );
    })
    .get('/user/contract.pdf', contractPdf)
    .get('/user/contract-preview.pdf', contractPdf)
    .post('/user/contract/signature-code', async (c) => {
      const caller = await memberCaller(c);
      await withinSignatureCodeCap(deps, caller.member.id, LIMITS.contractCodesPerDay);
      const { expiresAt } = await sendSignatureCode(deps.database.db, caller.member, {
        agency: deps.config.agency,
        now: deps.clock.now(),
        siteUrl: deps.config.publicSiteUrl,
      });
      deps.mailQueued();
      c.header('Cache-Control', 'private, no-store');
      return c.json({ sentTo: caller.member.email, expiresAt: expiresAt.toISOString() }, 200);
    })
    .post('/user/contract/sign', async (c) => {
      const caller = await memberCaller(c);
      const { code } = await readJson(c, SignBody);
      await withinSignatureCodeCap(deps, caller.member.id, LIMITS.contractTriesPerDay);
      const signed = await signWithCode(deps.database.db, caller.member, code, {
        agency: deps.config.agency,
        now: deps.clock.now(),
        clientAddress: clientAddress(c, deps.config.trustProxy),
        userAgent: c.req.header('user-agent') ?? '',
        verifyPayment: deps.verifyPayment,
        siteUrl: deps.config.publicSiteUrl,
      });
      deps.mailQueued();
      c.header('Cache-Control', 'private, no-store');
      return c.json({ signedAt: signed.signedAt.toISOString(), sha256: signed.sha256, textSha256: signed.textSha256 }, 200);
    });
}
