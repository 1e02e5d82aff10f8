import { createHash } from 'node:crypto';
import type { Caller } from '#bff/auth/guards.ts';
import type { Db, Transaction } from '#bff/db/database.ts';
import { ApiError } from '#bff/http/errors.ts';
import { enqueueMail, type OutgoingMail } from '#bff/mail/outbox.ts';
import { staffName } from '#bff/members/staff-names.ts';
import type { StaffRole } from '#machines/staff/roles.ts';
import {
  accountRoleByEmail,
  hasPendingInvitation,
  insertInvitation,
  invitationByDigest,
  lockPendingInvitation,
  pendingInvitationRows,
  takeInvitation,
  updateInvitation,
} from '#bff/team/store/invitations.ts';
import { bumpVersion, insertAccount, insertEvent } from '#bff/team/store/staff-accounts.ts';
import { STAFF_STATE } from '#bff/team/team.ts';

/** The event-log context of invitations (`onboarding_events`): INVITE, RESEND, REVOKE, ACCEPT. */
const INVITATION_CONTEXT = 'staff_invitation';

const digestOf = (token: string) => createHash('sha256').update(token).digest('hex');

export const INVALID = () =>
  new ApiError(
    400,
    'INVITATION_INVALID',
    'Ce lien d’invitation n’est plus valable : il a déjà servi, a été révoqué ou remplacé par un envoi plus récent. Demandez à un collègue de vous renvoyer l’invitation.',
  );
const EXPIRED = () =>
  new ApiError(
    400,
    'INVITATION_EXPIRED',
    'Ce lien d’invitation a expiré. Demandez à un collègue de l’équipe de vous renvoyer l’invitation depuis la page Équipe.',
  );
const PENDING = () =>
  new ApiError(409, 'INVITATION_PENDING', 'Une invitation est déjà en attente pour cette adresse : utilisez « Renvoyer ».');

/** Logs a staff member's action on an invitation in their own event log (the version moves). */
async function logOnActor(tx: Transaction, staff: Caller, event: string, payload: Record<string, unknown>, now: Date) {
  const bumped = await bumpVersion(tx, staff.id, now);
  if (!bumped) throw new ApiError(401, 'UNAUTHENTICATED', 'Vous devez être connecté.');
  await insertEvent(tx, {
    memberId: staff.id,
    context: INVITATION_CONTEXT,
    event,
    payload,
    fromState: STAFF_STATE,
    toState: STAFF_STATE,
    actorId: staff.id,
    actorRole: 'staff',
    version: bumped.version,
    createdAt: now,
  });
}

async function pendingById(tx: Transaction, id: string) {
  const row = await lockPendingInvitation(tx, id);
  if (!row) throw new ApiError(404, 'INVITATION_NOT_FOUND', 'Cette invitation n’est plus en attente (acceptée ou révoquée).');
  return row;
}

/** The invitation a link names, still pending and not expired; 400 with the reason otherwise. */
export async function usableInvitation(db: Db, token: string, now: Date) {
  const row = await invitationByDigest(db, digestOf(token));
  if (!row || row.acceptedAt || row.revokedAt) throw INVALID();
  if (now.getTime() > row.expiresAt.getTime()) throw EXPIRED();
  return row;
}

/** The invitations still pending, the oldest first, each with who sent it. */
export async function pendingInvitations(db: Db, now: number) {
  const rows = await pendingInvitationRows(db);
  return rows.map(({ invitation, inviter }) => ({
    id: invitation.id,
    email: invitation.email,
    name: invitation.name,
    role: invitation.staffRole,
    invitedBy: inviter ? { email: inviter.email, name: staffName(inviter) } : null,
    createdAt: invitation.createdAt.toISOString(),
    sentAt: invitation.sentAt.toISOString(),
    expiresAt: invitation.expiresAt.toISOString(),
    expired: now > invitation.expiresAt.getTime(),
  }));
}

/** 409 when the address is already a colleague's, a member's, or has an invitation pending. */
export async function assertInvitable(db: Db, email: string): Promise<void> {
  const holder = await accountRoleByEmail(db, email);
  if (holder?.role === 'staff')
    throw new ApiError(409, 'ALREADY_STAFF', 'Cette adresse est déjà celle d’un membre de l’équipe : il peut se connecter.');
  if (holder)
    throw new ApiError(
      409,
      'MEMBER_ACCOUNT',
      'Cette adresse est celle d’un compte adhérent : invitez le collègue avec une autre adresse (professionnelle).',
    );
  if (await hasPendingInvitation(db, email)) throw PENDING();
}

/** The invitation, its log row on the inviter and its mail, in one transaction; 409 on a concurrent one of the same address. */
export async function createInvitation(
  db: Db,
  input: {
    staff: Caller;
    email: string;
    name: string;
    role: StaffRole;
    authUserId: string;
    token: string;
    now: Date;
    expiresAt: Date;
    mail: OutgoingMail;
  },
) {
  const { staff, email, name, role, authUserId, token, now, expiresAt, mail } = input;
  return db
    .transaction(async (tx) => {
      const row = await insertInvitation(tx, {
        email,
        name,
        staffRole: role,
        authUserId,
        tokenDigest: digestOf(token),
        invitedBy: staff.id,
        createdAt: now,
        sentAt: now,
        expiresAt,
      });
      if (!row) throw new Error('invitation non enregistrée');
      await logOnActor(tx, staff, 'INVITE', { invitationId: row.id, email, role }, now);
      await enqueueMail(tx, mail);
      return row;
    })
    .catch((error: unknown) => {
      // Two invitations of one address at once: the partial unique index keeps one.
      if ((error as { code?: string }).code === '23505' || String((error as Error).message).includes('staff_invitations_pending_email'))
        throw PENDING();
      throw error;
    });
}

/** A new secret for a pending invitation (the previous link stops working), logged, its mail queued. */
export async function resendInvitation(
  db: Db,
  input: {
    staff: Caller;
    id: string;
    token: string;
    now: Date;
    expiresAt: Date;
    mail: (row: { email: string; name: string }) => OutgoingMail;
  },
): Promise<void> {
  const { staff, id, token, now, expiresAt } = input;
  await db.transaction(async (tx) => {
    const row = await pendingById(tx, id);
    await updateInvitation(tx, id, { tokenDigest: digestOf(token), sentAt: now, expiresAt });
    await logOnActor(tx, staff, 'RESEND', { invitationId: id, email: row.email }, now);
    await enqueueMail(tx, input.mail(row));
  });
}

/** A pending invitation revoked and logged; answers its row (the auth user to delete). */
export async function revokeInvitation(db: Db, staff: Caller, id: string, now: Date) {
  return db.transaction(async (tx) => {
    const pending = await pendingById(tx, id);
    await updateInvitation(tx, id, { revokedAt: now, revokedBy: staff.id });
    await logOnActor(tx, staff, 'REVOKE', { invitationId: id, email: pending.email }, now);
    return pending;
  });
}

type Invitation = Awaited<ReturnType<typeof usableInvitation>>;

/** The acceptance: the invitation taken (400 if revoked meanwhile), the colleague's staff row and its first log row. */
export async function acceptInvitation(db: Db, invitation: Invitation, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const taken = await takeInvitation(tx, invitation.id, now);
    // Revoked (or accepted elsewhere) while the password was being set.
    if (!taken) throw INVALID();
    await insertAccount(tx, {
      id: invitation.authUserId,
      email: invitation.email,
      gender: 'staff',
      role: 'staff',
      staffRole: invitation.staffRole,
      onboarding: { staff: true, name: invitation.name },
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
    await insertEvent(tx, {
      memberId: invitation.authUserId,
      context: INVITATION_CONTEXT,
      event: 'ACCEPT',
      payload: { invitationId: invitation.id, invitedBy: invitation.invitedBy },
      fromState: STAFF_STATE,
      toState: STAFF_STATE,
      actorId: invitation.authUserId,
      actorRole: 'staff',
      version: 1,
      createdAt: now,
    });
  });
}
