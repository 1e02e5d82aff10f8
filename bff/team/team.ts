import type { Caller } from '#bff/auth/guards.ts';
import type { Db } from '#bff/db/database.ts';
import { lockMemberRow, memberById } from '#bff/members/store/members.ts';
import { ApiError } from '#bff/http/errors.ts';
import type { AgencyMailSite } from '#bff/mail/agency-mails.ts';
import { enqueueMail } from '#bff/mail/outbox.ts';
import { mfaResetMail } from '#bff/mail/staff-mails.ts';
import type { MemberRow } from '#bff/members/members.ts';
import { staffName } from '#bff/members/staff-names.ts';
import {
  bumpVersion,
  deleteSessionsOf,
  eventsInContext,
  insertEvent,
  lockStaffRows,
  staffRows,
  updateStaffAccount,
} from '#bff/team/store/staff-accounts.ts';
import { type StaffRole, staffRoleOf } from '#machines/staff/roles.ts';

/** The event-log context of a second-factor reset (`onboarding_events`, staff's own rows). */
const MFA_RESET_CONTEXT = 'mfa_reset';
/** The event-log context of a role change (decision 206). */
const STAFF_ROLE_CONTEXT = 'staff_role';
/** Staff rows have no onboarding chart: their log rows say so in place of a state. */
export const STAFF_STATE = 'equipe';

const staffNotFound = () => new ApiError(404, 'STAFF_NOT_FOUND', 'Membre de l’équipe introuvable.');

/** The staff accounts, by address, with the last reset of each one's second factor and who did it. */
export async function staffWithLastReset(db: Db) {
  const rows = await staffRows(db);
  const resets =
    rows.length > 0
      ? await eventsInContext(
          db,
          MFA_RESET_CONTEXT,
          rows.map((r) => r.id),
        )
      : [];
  const emailOf = new Map(rows.map((r) => [r.id, r.email]));
  const lastReset = new Map<string, { at: string; byEmail: string | null }>();
  for (const reset of resets) {
    if (lastReset.has(reset.memberId)) continue;
    lastReset.set(reset.memberId, {
      at: reset.at.toISOString(),
      byEmail: reset.actorId ? (emailOf.get(reset.actorId) ?? null) : null,
    });
  }
  return { rows, lastReset };
}

/**
 * The staff row's flag and its log row, in one transaction (decision 100): `false` when the flag
 * already had that value; the colleague's sessions (`sessionsTable` of the auth connection) are
 * deleted in the same transaction when disabled. Never one's own account.
 */
export async function setStaffDisabledRow(db: Db, staff: Caller, id: string, disable: boolean, sessionsTable: string, now: Date) {
  if (id === staff.id)
    throw new ApiError(400, 'SELF_DISABLE_REFUSED', 'Vous ne pouvez pas désactiver votre propre compte : demandez-le à un collègue.');
  return db.transaction(async (tx) => {
    const target = await lockMemberRow(tx, id);
    if (target?.role !== 'staff') throw staffNotFound();
    if (target.disabled === disable) return false;
    const version = target.version + 1;
    await updateStaffAccount(tx, id, { disabled: disable, version, updatedAt: now });
    if (disable) await deleteSessionsOf(tx, sessionsTable, id);
    await insertEvent(tx, {
      memberId: id,
      context: 'ban',
      event: disable ? 'DISABLE' : 'ENABLE',
      payload: { disable, uid: id },
      fromState: STAFF_STATE,
      toState: STAFF_STATE,
      actorId: staff.id,
      actorRole: 'staff',
      version,
      createdAt: now,
    });
    return true;
  });
}

/**
 * A colleague's role changed by an administrator (decision 206), logged with who did it: `false`
 * when unchanged; 409 when it would leave the agency without an active administrator.
 */
export async function changeStaffRole(db: Db, staff: Caller, id: string, role: StaffRole, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Every staff row locked in one order: two demotions at once cannot both pass the count.
    const rows = await lockStaffRows(tx);
    const target = rows.find((r) => r.id === id);
    if (!target) throw staffNotFound();
    const from = staffRoleOf(target.staffRole);
    if (from === role) return false;
    const admins = rows.filter((r) => !r.disabled && staffRoleOf(r.staffRole) === 'administration' && r.id !== id);
    if (role !== 'administration' && admins.length === 0)
      throw new ApiError(
        409,
        'LAST_ADMINISTRATOR',
        'L’agence doit garder au moins une personne à l’administration : nommez-en une autre avant de changer ce rôle.',
      );
    const version = target.version + 1;
    await updateStaffAccount(tx, id, { staffRole: role, version, updatedAt: now });
    await insertEvent(tx, {
      memberId: id,
      context: STAFF_ROLE_CONTEXT,
      event: 'ROLE',
      payload: { from, to: role },
      fromState: STAFF_STATE,
      toState: STAFF_STATE,
      actorId: staff.id,
      actorRole: 'staff',
      version,
      createdAt: now,
    });
    return true;
  });
}

/** The staff row a reset names: 404 when the id is no colleague's. */
export async function staffRowById(db: Db, id: string): Promise<MemberRow> {
  const target = await memberById(db, id);
  if (target?.role !== 'staff') throw staffNotFound();
  return target;
}

/** After the factors are deleted: the reset logged on the colleague's row and their mail queued, in one transaction. */
export async function recordMfaReset(
  db: Db,
  input: { staff: Caller; target: MemberRow; removed: readonly { id: string; status: string }[]; site: AgencyMailSite; now: Date },
): Promise<void> {
  const { staff, target, removed, site, now } = input;
  const actor = staffName(staff.member) === staff.email ? staff.email : `${staffName(staff.member)} (${staff.email})`;
  await db.transaction(async (tx) => {
    // The version moves with every logged event (UNIQUE (member_id, version)), as for the ban.
    const bumped = await bumpVersion(tx, target.id, now);
    if (!bumped) throw staffNotFound();
    await insertEvent(tx, {
      memberId: target.id,
      context: MFA_RESET_CONTEXT,
      event: 'RESET_MFA',
      payload: { factors: removed },
      fromState: STAFF_STATE,
      toState: STAFF_STATE,
      actorId: staff.id,
      actorRole: 'staff',
      version: bumped.version,
      createdAt: now,
    });
    await enqueueMail(tx, mfaResetMail(site, { to: target.email, name: staffName(target), actor, at: now }));
  });
}
