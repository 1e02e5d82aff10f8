import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { User } from '@supabase/supabase-js';
import type { Db, Transaction } from '#bff/db/database.ts';
import { type AgencyMailSite, layout, siteLink } from '#bff/mail/agency-mails.ts';
import type { OutgoingMail } from '#bff/mail/outbox.ts';
import { queueWelcomeMail } from '#bff/mail/agency-mail-triggers.ts';
import { insertMember } from '#bff/members/members.ts';
import { claimPreRegistration } from '#bff/members/signup-prefill.ts';
import { memberIdById, memberIdByLowerEmail } from '#bff/members/store/members.ts';
import { pendingInvitationsFor } from '#bff/members/store/staff-invitations.ts';
import type { Gender } from '#machines/auth/credentials.ts';

/**
 * Addresses belong to whoever reads the mailbox (issue 60, point 3; decision 187). A registration
 * without the pre-registration's link makes an auth user that is not confirmed and has no member
 * row: the confirmation mail's link, opened by this browser (its cookie) or with the password
 * chosen then, confirms it and creates the member. Until then a new registration or a reset by the
 * mailbox's owner replaces it; an address that has an account, or a pending staff invitation, is
 * never touched by a registration.
 */

/** The cookie that lets the browser which registered confirm without typing its password again. */
export const REGISTRATION_COOKIE = 'us-inscription';
export const REGISTRATION_COOKIE_SECONDS = 7 * 24 * 60 * 60;

/** Where the confirmation mail's link leads (spec §2: « confirmation, no layout set »). */
export const CONFIRMATION_PATH = '/connexion/confirmation';

/**
 * How long the link works, as the mail says: the auth service's e-mail link lifetime (the embedded
 * one's `otpExpirySeconds`; on a hosted project, « Email OTP Expiration », to be kept at 1 hour).
 */
export const CONFIRMATION_LINK_SECONDS = 3600;

const digestOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** A new proof of registration: the cookie's secret, and its digest kept in the auth user's `app_metadata`. */
export function newRegistrationProof(): { secret: string; digest: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, digest: digestOf(secret) };
}

/** `<auth user id>.<secret>` (a made-up id for an address that got no registration: the answers look alike). */
export function registrationCookieValue(userId: string, secret: string): string {
  return `${userId}.${secret}`;
}

export function parseRegistrationCookie(value: string | undefined): { userId: string; secret: string } | null {
  const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/i.exec(value ?? '');
  return match?.[1] && match[2] ? { userId: match[1], secret: match[2] } : null;
}

/** Whether `secret` is the one whose digest the registration kept. */
export function provesRegistration(user: User, secret: string): boolean {
  const kept = user.app_metadata?.registration;
  if (typeof kept !== 'string' || kept.length !== 64) return false;
  return timingSafeEqual(Buffer.from(kept), Buffer.from(digestOf(secret)));
}

/**
 * What a registration waiting for its confirmation holds in the auth user (decision 187): the
 * gender the server decided (the member's role), and the pre-registration it came from, if any.
 * Null for any other user (an invited colleague, staff, an account made by the product itself).
 */
export function pendingRegistrationOf(user: User): { gender: Gender; preRegistrationId: string | null } | null {
  const role = user.app_metadata?.role;
  if ((role !== 'homme' && role !== 'femme') || user.invited_at) return null;
  const pre = user.app_metadata?.pre_registration;
  return { gender: role, preRegistrationId: typeof pre === 'string' ? pre : null };
}

/** The member row holding this address, if any (an account exists: never replaced by a registration). */
export async function memberWithEmail(db: Db, email: string): Promise<{ id: string } | undefined> {
  return memberIdByLowerEmail(db, email);
}

/** Whether a staff invitation waits for this address (it is reserved for the colleague). */
export async function pendingStaffInvitationFor(db: Db, email: string): Promise<boolean> {
  const rows = await pendingInvitationsFor(db, email);
  return rows.length > 0;
}

/**
 * The work a new registration's password costs the auth service (an argon2id hash), done for an
 * address that gets no new registration, so that the answer does not come back sooner for it.
 */
export async function decoyPasswordWork(password: string): Promise<void> {
  await hash(password).catch(() => undefined);
}

/** Locks the member row of `id` if it exists (a confirmation racing another one creates it once). */
async function memberExists(tx: Transaction, id: string): Promise<boolean> {
  const row = await memberIdById(tx, id);
  return Boolean(row);
}

/**
 * To the owner of an address that already has an account, when someone registers with it: the
 * registration changed nothing, and the way back in if it was them (decision 187).
 */
export function signupAttemptMail(site: AgencyMailSite, to: string): OutgoingMail {
  return layout(site, { to }, 'account-signup-attempt', 'Une inscription a été tentée avec votre adresse e-mail', [
    {
      text: `Quelqu’un vient d’essayer de créer un compte ${site.agency.legalName} avec votre adresse e-mail. Un compte existe déjà pour cette adresse : rien n’a été modifié.`,
    },
    {
      text: 'Si c’était vous et que vous ne retrouvez plus votre mot de passe, choisissez-en un nouveau depuis ce lien :',
    },
    { link: siteLink(site, '/connexion/recovery'), label: 'Réinitialiser mon mot de passe' },
    {
      text: 'Si ce n’était pas vous, vous n’avez rien à faire : votre compte et votre mot de passe restent inchangés.',
    },
  ]);
}

/**
 * The member row of a registration now confirmed, once: the row, its pre-registration claimed and
 * its welcome mail queued, in one transaction; false when the row already existed (nothing written).
 */
export async function createConfirmedMember(
  db: Db,
  site: Parameters<typeof queueWelcomeMail>[1],
  input: { id: string; email: string; gender: Gender; preRegistrationId: string | null; now: Date },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (await memberExists(tx, input.id)) return false;
    await insertMember(tx, { id: input.id, email: input.email, gender: input.gender, now: input.now });
    if (input.preRegistrationId) await claimPreRegistration(tx, input.preRegistrationId, input.id, input.now);
    await queueWelcomeMail(tx, site, { id: input.id, email: input.email });
    return true;
  });
}
