import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { renderMemberContract } from '#bff/contract/member-contract.ts';
import type { Db } from '#bff/db/database.ts';
import { ApiError } from '#bff/http/errors.ts';
import { log } from '#bff/logger.ts';
import { type MemberRow, recordOf } from '#bff/members/members.ts';
import { enqueueMail } from '#bff/mail/outbox.ts';
import { type AgencyMailSite, layout, type Recipient, siteLink } from '#bff/mail/agency-mails.ts';
import { firstNameOf } from '#bff/mail/agency-mail-triggers.ts';
import { PERIODS } from '#machines/glossary.ts';
import { NO_PAYMENT_PERIOD_DAYS, WITHDRAWAL_PERIOD_DAYS } from '#machines/onboarding/legal-periods.ts';
import { applyOnboardingUpdate } from '#bff/onboarding/apply-update.ts';
import {
  countSignatureCodeTry,
  deleteSignatureCode,
  insertSignature,
  signatureCodeOf,
  upsertSignatureCode,
} from '#bff/onboarding/store/signature-codes.ts';
import type { PaymentVerifier } from '#bff/payments/verify-payment.ts';
import { replaceSignedContract } from '#bff/privacy/contract-copy.ts';
import { toIsoInstant } from '#machines/onboarding/instant.ts';
import type { AgencyIdentity } from '#machines/public-site/agency-identity.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';
import { count } from '#machines/french/plural.ts';

/**
 * The simple electronic signature of the contract (eIDAS art. 25, Code civil art. 1367;
 * docs/decisions/109-contract-signature.md): a one-time 6-digit code mailed to the member, valid
 * 15 minutes, 5 tries, stored hashed; once it is verified — by the server, never the browser —
 * the BFF sends the chart's `sub_date` event, stores the evidence record and mails the signed PDF.
 */

const CODE_VALIDITY_MS = 15 * 60 * 1000;
export const MAX_CODE_ATTEMPTS = 5;
/** A new code may be asked for once a minute. */
const RESEND_AFTER_MS = 60 * 1000;

// The tables of codes and evidence records are the store's; retention and the tests name them from here.

const sha256Hex = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
/** The code is hashed with the member's id: the table never holds a code in clear. */
const codeHash = (memberId: string, code: string) => sha256Hex(`contract-signature:${memberId}:${code}`);

const parisDateTime = frenchDateFormat({ timeZone: 'Europe/Paris', dateStyle: 'long', timeStyle: 'short' });

/** The code that signs the contract: in the agency's mail layout (greeting, signature, legal footer). */
export function signatureCodeMail(site: AgencyMailSite, recipient: Recipient, code: string) {
  return layout(site, recipient, 'contract-signature-code', `Votre code de signature du contrat — ${site.agency.legalName}`, [
    { text: `Voici votre code pour signer votre contrat de courtage matrimonial avec ${site.agency.legalName} : ${code}` },
    {
      text: 'Saisissez-le dans votre espace membre, à l’étape « Contrat », sous le texte du contrat. Il est valable 15 minutes et ne sert qu’une fois. En le saisissant, vous signez électroniquement le contrat que vous venez de lire (article 1367 du Code civil).',
    },
    { link: siteLink(site, '/mon-compte/inscription/attente-contrat'), label: 'Ouvrir mon contrat' },
    { text: 'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : rien ne sera signé sans ce code.' },
  ]);
}

/** The signed copy, attached (L224-90), in the agency's mail layout. */
export function signedContractMail(
  site: AgencyMailSite,
  recipient: Recipient,
  input: {
    signedAt: Date;
    /** SHA-256 of the text signed, as the evidence page prints it. */
    textSha256: string;
    pdf: Uint8Array;
    filename: string;
  },
) {
  return {
    ...layout(site, recipient, 'contract-signed-copy', `Votre contrat signé — ${site.agency.legalName}`, [
      {
        text: `Vous avez signé votre contrat de courtage matrimonial le ${parisDateTime.format(input.signedAt)} (heure de Paris). Vous en trouverez votre exemplaire en pièce jointe (article L224‑90 du Code de la consommation) ; il reste téléchargeable dans votre espace membre.`,
      },
      {
        text: `Empreinte SHA-256 du texte signé : ${input.textSha256} (elle figure aussi sur la page de preuve de signature, à la fin du PDF).`,
      },
      {
        text: `Vous disposez d’un ${PERIODS.renunciation} de ${NO_PAYMENT_PERIOD_DAYS} jours pour renoncer au contrat sans motif ni frais (article L224‑91) ; aucun paiement ne vous sera demandé avant la fin de ce délai. Le contrat rappelle aussi votre ${PERIODS.withdrawal} de ${WITHDRAWAL_PERIOD_DAYS} jours et son formulaire type.`,
      },
      { link: siteLink(site, '/mon-compte'), label: 'Ouvrir mon espace membre' },
    ]),
    attachments: [{ filename: input.filename, contentType: 'application/pdf', contentBase64: Buffer.from(input.pdf).toString('base64') }],
  };
}

/** The contract as it would be signed now, or an error in French when there is nothing to sign. */
async function unsignedContract(db: Db, row: MemberRow, options: { agency: AgencyIdentity; now: Date }) {
  if (recordOf(row).subscriptionDate) throw new ApiError(409, 'CONTRACT_ALREADY_SIGNED', 'Votre contrat est déjà signé.');
  const contract = await renderMemberContract(db, row, options);
  if (!contract) throw new ApiError(409, 'CONTRACT_NOT_READY', 'Complétez d’abord les informations du contrat.');
  return contract;
}

/**
 * The code already sent and still usable for the contract shown now, if any: after a reload, the
 * page shows the code field again instead of asking for a new code (which would void this one).
 */
export async function liveSignatureCode(
  db: Db,
  memberId: string,
  options: { now: Date; textSha256: string },
): Promise<{ sentAt: Date; expiresAt: Date } | null> {
  const code = await signatureCodeOf(db, memberId);
  if (!code || code.expiresAt.getTime() <= options.now.getTime() || code.attempts >= MAX_CODE_ATTEMPTS) return null;
  if (code.documentSha256 !== options.textSha256) return null;
  return { sentAt: code.sentAt, expiresAt: code.expiresAt };
}

/** Mails a new one-time code bound to the contract shown now (its SHA-256). */
export async function sendSignatureCode(
  db: Db,
  row: MemberRow,
  options: { agency: AgencyIdentity; now: Date; siteUrl: string },
): Promise<{ expiresAt: Date }> {
  const contract = await unsignedContract(db, row, options);
  const now = options.now;
  const previous = await signatureCodeOf(db, row.id);
  if (previous && now.getTime() - previous.sentAt.getTime() < RESEND_AFTER_MS) {
    throw new ApiError(429, 'CODE_RECENTLY_SENT', 'Un code vient de vous être envoyé : patientez une minute avant d’en demander un autre.');
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(now.getTime() + CODE_VALIDITY_MS);
  // The code signs the text shown now (its SHA-256, decision 185), whatever the PDF's draft marks.
  const values = { codeHash: codeHash(row.id, code), documentSha256: contract.textSha256, sentAt: now, expiresAt, attempts: 0 };
  await db.transaction(async (tx) => {
    await upsertSignatureCode(tx, row.id, values);
    await enqueueMail(
      tx,
      signatureCodeMail({ siteUrl: options.siteUrl, agency: options.agency }, { to: row.email, firstName: firstNameOf(row.profile) }, code),
    );
  });
  log.info('contrat : code de signature envoyé', { memberId: row.id });
  return { expiresAt };
}

/**
 * Checks the code (counting the try first, so that a wrong code is counted even if the answer
 * is lost), then signs: `sub_date` through the chart, the evidence record, the signed copy mailed.
 */
export async function signWithCode(
  db: Db,
  row: MemberRow,
  code: string,
  options: {
    agency: AgencyIdentity;
    now: Date;
    clientAddress: string;
    userAgent: string;
    verifyPayment: PaymentVerifier;
    siteUrl: string;
  },
): Promise<{ sha256: string; textSha256: string; signedAt: Date }> {
  const now = options.now;
  if (recordOf(row).subscriptionDate) throw new ApiError(409, 'CONTRACT_ALREADY_SIGNED', 'Votre contrat est déjà signé.');
  const claim = await db.transaction((tx) => countSignatureCodeTry(tx, row.id));
  if (!claim) throw new ApiError(400, 'CODE_NOT_REQUESTED', 'Demandez d’abord un code de signature.');
  if (claim.expiresAt.getTime() <= now.getTime()) {
    throw new ApiError(400, 'CODE_EXPIRED', 'Ce code a expiré : demandez-en un nouveau.');
  }
  if (claim.attempts > MAX_CODE_ATTEMPTS) {
    throw new ApiError(429, 'CODE_LOCKED', 'Trop d’essais avec ce code : demandez-en un nouveau.');
  }
  const expected = Buffer.from(claim.codeHash, 'hex');
  const given = Buffer.from(codeHash(row.id, code), 'hex');
  if (!timingSafeEqual(expected, given)) {
    const left = MAX_CODE_ATTEMPTS - claim.attempts;
    throw new ApiError(
      400,
      'CODE_INVALID',
      left > 0 ? `Code incorrect. Il vous reste ${count(left, 'essai', 'essais')}.` : 'Code incorrect. Demandez un nouveau code.',
    );
  }
  // The code signs the document shown when it was asked for, and no other.
  const contract = await unsignedContract(db, row, { agency: options.agency, now });
  if (contract.textSha256 !== claim.documentSha256) {
    await deleteSignatureCode(db, row.id);
    throw new ApiError(409, 'CONTRACT_CHANGED', 'Le contrat a changé depuis l’envoi du code : relisez-le et demandez un nouveau code.');
  }
  // The chart decides whether signing is allowed now; the privacy hook stores the signed text;
  // then, in the same transaction, the evidence record is written and the copy replaced by the one
  // with its evidence page, drawn from that record, and mailed (decisions 109 and 185): a
  // signature never exists without its proof.
  let sha256 = '';
  const textSha256 = claim.documentSha256;
  await applyOnboardingUpdate(
    db,
    { context: 'sub_date', subDate: toIsoInstant(now.getTime()) },
    {
      actor: { id: row.id, role: 'member' },
      callerMemberId: row.id,
      now,
      verifyPayment: options.verifyPayment,
      agency: options.agency,
      mail: { siteUrl: options.siteUrl, agency: options.agency },
      alsoInTransaction: async (tx, signedRow) => {
        await deleteSignatureCode(tx, row.id);
        const recorded = await insertSignature(tx, {
          memberId: row.id,
          documentSha256: textSha256,
          signedAt: now,
          clientAddress: options.clientAddress.slice(0, 64),
          userAgent: options.userAgent.slice(0, 512),
          method: 'email_code',
          codeSentAt: claim.sentAt,
          codeVerifiedAt: now,
          codeAttempts: claim.attempts,
        });
        if (!recorded) throw new Error('contract_signatures: no row returned');
        const signed = await renderMemberContract(tx, signedRow, {
          agency: options.agency,
          now,
          evidence: {
            signerEmail: signedRow.email,
            signedAt: recorded.signedAt,
            method: recorded.method,
            codeSentAt: recorded.codeSentAt,
            codeVerifiedAt: recorded.codeVerifiedAt,
            codeAttempts: recorded.codeAttempts,
            clientAddress: recorded.clientAddress,
            userAgent: recorded.userAgent,
            textSha256: recorded.documentSha256,
          },
        });
        if (!signed?.signedAt) throw new Error('signed contract missing after sub_date');
        if (signed.textSha256 !== textSha256) throw new Error('the contract signed differs from the text the code was sent for');
        sha256 = await replaceSignedContract(tx, row.id, signed.signedAt, signed.pdf);
        await enqueueMail(
          tx,
          signedContractMail(
            { siteUrl: options.siteUrl, agency: options.agency },
            { to: signedRow.email, firstName: firstNameOf(signedRow.profile) },
            { signedAt: now, textSha256, pdf: signed.pdf, filename: 'contrat-signe.pdf' },
          ),
        );
      },
    },
  );
  log.info('contrat : signé par code', { memberId: row.id });
  return { sha256, textSha256, signedAt: now };
}
