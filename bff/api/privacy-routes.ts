import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { memberOnly, staffOnly } from '#bff/auth/guards.ts';
import { requestClient } from '#bff/auth/supabase.ts';
import { ApiError } from '#bff/http/errors.ts';
import { jsonBody } from '#bff/http/validate.ts';
import { signedContractOf } from '#bff/privacy/contract-copy.ts';
import { consentHistory, consentStatuses, withdrawSensitiveData } from '#bff/privacy/consents.ts';
import { eraseMember } from '#bff/privacy/erasure.ts';
import { exportMemberData } from '#bff/privacy/export.ts';
import { consentKinds, consentTexts } from '#machines/privacy/consent-texts.ts';

const WithdrawBody = v.strictObject({ kind: v.picklist(consentKinds, 'Consentement inconnu') }, 'Données invalides');
const EraseBody = v.strictObject(
  { email: v.pipe(v.string('Adresse e-mail requise'), v.trim(), v.maxLength(254, 'Adresse e-mail invalide')) },
  'Données invalides',
);
const MemberIdParam = v.pipe(v.string(), v.uuid('Identifiant invalide'));

const MATCHMAKING_PAUSED_MESSAGE =
  'Vous avez retiré votre consentement au traitement de votre pratique religieuse : la recherche de profils compatibles est suspendue et ces informations ont été retirées de votre dossier. L’équipe vous contactera pour voir si l’accompagnement peut se poursuivre.';

function pdfResponse(c: import('hono').Context, pdf: Uint8Array, fileName: string) {
  c.header('Content-Type', 'application/pdf');
  c.header('Content-Disposition', `attachment; filename="${fileName}"`);
  c.header('Cache-Control', 'private, no-store');
  c.header('X-Content-Type-Options', 'nosniff');
  return c.body(pdf as Uint8Array<ArrayBuffer>, 200);
}

/**
 * Members' data rights (decision 070): consents and their withdrawal, export, erasure, and the
 * signed contract copy (for the member, and for staff at aal2).
 */
export function privacyRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const member = memberOnly(deps);

  return new Hono()
    .get('/user/consents', member, async (c) => {
      const caller = c.var.member;
      const history = await consentHistory(db, caller.id, caller.member.email);
      const paused = caller.matchmakingPausedAt;
      c.header('Cache-Control', 'private, no-store');
      return c.json(
        {
          consents: consentStatuses(history),
          history,
          matchmaking: paused
            ? { paused: true as const, since: paused.toISOString(), message: MATCHMAKING_PAUSED_MESSAGE }
            : { paused: false as const },
        },
        200,
      );
    })
    .post('/user/consents/withdraw', member, jsonBody(WithdrawBody), async (c) => {
      const caller = c.var.member;
      const { kind } = c.req.valid('json');
      const latest = consentStatuses(await consentHistory(db, caller.id, caller.member.email)).find((s) => s.kind === kind);
      if (!consentTexts[kind].withdrawable) {
        throw new ApiError(409, 'CONSENT_NOT_WITHDRAWABLE', consentTexts[kind].effect);
      }
      if (!latest?.given) throw new ApiError(409, 'CONSENT_NOT_GIVEN', 'Ce consentement n’est pas donné actuellement.');
      const result = await withdrawSensitiveData(db, caller.id, deps.clock.now());
      c.header('Cache-Control', 'private, no-store');
      return c.json(
        {
          kind,
          given: false as const,
          matchmaking: { paused: true as const, since: result.matchmakingPausedAt, message: MATCHMAKING_PAUSED_MESSAGE },
        },
        200,
      );
    })
    .get('/user/export', member, async (c) => {
      const caller = c.var.member;
      const now = deps.clock.now();
      const data = await exportMemberData({ db, auth: deps.auth }, caller.id, now);
      c.header('Content-Disposition', `attachment; filename="union-sincere-mes-donnees-${now.toISOString().slice(0, 10)}.json"`);
      c.header('Cache-Control', 'private, no-store');
      return c.json(data, 200);
    })
    .post('/user/erase', member, jsonBody(EraseBody), async (c) => {
      const caller = c.var.member;
      const { email } = c.req.valid('json');
      if (email.toLowerCase() !== caller.member.email.toLowerCase()) {
        throw new ApiError(400, 'VALIDATION_FAILED', 'L’adresse e-mail saisie ne correspond pas à celle de votre compte.', {
          issues: [{ path: 'email', message: 'L’adresse e-mail saisie ne correspond pas à celle de votre compte.' }],
        });
      }
      const now = deps.clock.now();
      // End every session (and clear this browser's cookies) before the user disappears.
      await requestClient(c, deps.auth)
        .auth.signOut({ scope: 'global' })
        .catch(() => {});
      const summary = await eraseMember({ db, auth: deps.auth }, caller.id, { now, requestedBy: 'member' });
      if (!summary) throw new ApiError(409, 'ALREADY_ERASED', 'Ce compte a déjà été supprimé.');
      c.header('Cache-Control', 'private, no-store');
      return c.json(
        {
          erased: true as const,
          message:
            'Votre compte et vos données personnelles ont été supprimés. Seuls le contrat et les pièces comptables sont conservés, le temps exigé par la loi.',
        },
        200,
      );
    })
    .get('/user/contract/signed.pdf', member, async (c) => {
      const caller = c.var.member;
      const copy = await signedContractOf(db, caller.id);
      if (!copy) throw new ApiError(404, 'CONTRACT_NOT_FOUND', 'Aucun contrat signé pour le moment.');
      return pdfResponse(c, copy.pdf, `contrat-signe-union-sincere-${copy.signedAt.toISOString().slice(0, 10)}.pdf`);
    })
    .get('/dashboard/members/:id/contract.pdf', staffOnly(deps), async (c) => {
      const id = v.safeParse(MemberIdParam, c.req.param('id'));
      if (!id.success) throw new ApiError(404, 'CONTRACT_NOT_FOUND', 'Aucun contrat signé pour ce membre.');
      const copy = await signedContractOf(db, id.output);
      if (!copy) throw new ApiError(404, 'CONTRACT_NOT_FOUND', 'Aucun contrat signé pour ce membre.');
      // Staff access log (decisions 107, 206): `staffOnly` records the read before the PDF leaves.
      return pdfResponse(c, copy.pdf, `contrat-${id.output}.pdf`);
    });
}
