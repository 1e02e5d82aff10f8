import { createHash, randomBytes } from 'node:crypto';
import * as v from 'valibot';
import type { Db, Transaction } from '#bff/db/database.ts';
import { type AgencyMailSite, layout, siteLink } from '#bff/mail/agency-mails.ts';
import type { OutgoingMail } from '#bff/mail/outbox.ts';
import { claimById, claimByTokenHash, latestPrefill, preSubscriptionByTokenHash } from '#bff/members/store/pre-subscriptions.ts';

/**
 * Nothing is asked twice (issue 21, decision 127). A pre-registration mails the visitor a link to
 * the sign-up carrying an opaque token (32 random bytes; only its SHA-256 is stored, never any
 * personal data in the URL). The sign-up page reads the address and gender it stands for; the
 * account created with it takes the pre-registration's gender (the server decides), links the
 * pre-registration to the member and spends the token; step 1 starts with the postcode and city.
 */

export const INVITATION_INVALID_MESSAGE =
  'Ce lien d’inscription n’est plus valable (déjà utilisé ou expiré). Vous pouvez créer votre compte ci-dessous.';

/** How long the link stays valid. */
const SIGNUP_LINK_DAYS = 30;

/** The token as the URL carries it: 43 base64url characters. */
export const InvitationSchema = v.pipe(
  v.string('Lien d’inscription invalide'),
  v.regex(/^[A-Za-z0-9_-]{43}$/, 'Lien d’inscription invalide'),
);

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export function newSignupToken(now: Date): { token: string; hash: string; expiresAt: Date } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashOf(token), expiresAt: new Date(now.getTime() + SIGNUP_LINK_DAYS * 86_400_000) };
}

/** The pre-registration a valid (unspent, unexpired) token stands for, or null. */
export async function invitationOf(db: Db | Transaction, token: string, now: Date) {
  const row = await preSubscriptionByTokenHash(db, hashOf(token), now);
  return row ?? null;
}

/** Links the pre-registration to the new member and spends the token; false if it was spent meanwhile. */
export async function claimInvitation(tx: Transaction, token: string, memberId: string, now: Date): Promise<boolean> {
  return (await claimByTokenHash(tx, hashOf(token), memberId, now)) === 1;
}

/**
 * Links a pre-registration to the member created when the registration made with its link (under
 * another address, so confirmed by mail later: decision 187) is confirmed; spends its token.
 * False when it was linked or expired meanwhile (the account is still created).
 */
export async function claimPreRegistration(tx: Transaction, id: string, memberId: string, now: Date): Promise<boolean> {
  return (await claimById(tx, id, memberId, now)) === 1;
}

/** What step 1 starts with: the linked pre-registration's postcode and city (the latest one). */
export async function prefillOf(db: Db, memberId: string): Promise<{ postcode: string; city: string } | null> {
  const row = await latestPrefill(db, memberId);
  return row ?? null;
}

/** The pre-registration's confirmation: thanks, and the link that opens the sign-up pre-filled. */
export function preRegistrationMail(site: AgencyMailSite, to: string, token: string): OutgoingMail {
  return layout(site, { to }, 'pre-registration-confirmed', 'Votre pré-inscription est bien reçue', [
    {
      text: `Merci pour votre pré-inscription : l’agence ${site.agency.legalName} l’a bien reçue. Une conseillère pourra vous recontacter.`,
    },
    {
      text: `Vous pouvez dès maintenant créer votre compte : vous n’aurez pas à redonner les informations déjà transmises. Ce lien est personnel et valable ${SIGNUP_LINK_DAYS} jours.`,
    },
    { link: siteLink(site, `/connexion/nouveau-compte?invitation=${token}`), label: 'Créer mon compte' },
    { text: 'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message.' },
  ]);
}
