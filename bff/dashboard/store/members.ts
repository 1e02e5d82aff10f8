// The member and staff rows the back office reads, locks and logs on (`members`, `onboarding_events`).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { members, onboardingEvents } from '#bff/db/schema.ts';

/** The role of row `id` locked for a change, if any. */
export async function lockMemberRole(tx: Transaction, id: string) {
  const [row] = await tx.select({ role: members.role }).from(members).where(eq(members.id, id)).for('update');
  return row;
}

/** The members (role member) among `ids`, locked in the order of their ids. */
export async function lockMembers(tx: Transaction, ids: readonly string[]) {
  return tx
    .select()
    .from(members)
    .where(and(inArray(members.id, [...ids]), eq(members.role, 'member')))
    .orderBy(members.id)
    .for('update');
}

/** The address and onboarding (where a staff account keeps its name) of the rows `ids`. */
export async function accountsByIds(db: Db, ids: string[]) {
  return db.select({ id: members.id, email: members.email, onboarding: members.onboarding }).from(members).where(inArray(members.id, ids));
}

/** Every staff account: address, onboarding (its name) and whether it is disabled. */
export async function staffAccountRows(db: Db) {
  return db
    .select({ id: members.id, email: members.email, onboarding: members.onboarding, disabled: members.disabled })
    .from(members)
    .where(eq(members.role, 'staff'));
}

/** The enabled staff account `id`, if it is one. */
export async function enabledStaffAccount(db: Db, id: string) {
  const [row] = await db
    .select({ id: members.id, email: members.email, onboarding: members.onboarding })
    .from(members)
    .where(and(eq(members.id, id), eq(members.role, 'staff'), eq(members.disabled, false)))
    .limit(1);
  return row;
}

/** Row `id`'s version moved by one (every logged event moves it); its new version, none when no such row. */
export async function bumpVersion(tx: Transaction, id: string, now: Date) {
  const [bumped] = await tx
    .update(members)
    .set({ version: sql`${members.version} + 1`, updatedAt: now })
    .where(eq(members.id, id))
    .returning({ version: members.version });
  return bumped;
}

/** The versions of the rows `ids` moved by one; each row's new version. */
export async function bumpVersions(tx: Transaction, ids: string[], now: Date) {
  return tx
    .update(members)
    .set({ version: sql`${members.version} + 1`, updatedAt: now })
    .where(inArray(members.id, ids))
    .returning({ id: members.id, version: members.version });
}

/** Rows of the members' event logs. */
export async function insertEvents(tx: Transaction, rows: (typeof onboardingEvents.$inferInsert)[]) {
  await tx.insert(onboardingEvents).values(rows);
}
