// The staff accounts' rows (`members` with role staff), their log rows and their sessions.
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { members, onboardingEvents } from '#bff/db/schema.ts';

/** Every staff row, by address (case-insensitive). */
export async function staffRows(db: Db) {
  return db
    .select()
    .from(members)
    .where(eq(members.role, 'staff'))
    .orderBy(asc(sql`lower(${members.email})`));
}

/** The log rows of `context` on the rows `memberIds`, the newest first: who acted, and when. */
export async function eventsInContext(db: Db, context: string, memberIds: string[]) {
  return db
    .select({ memberId: onboardingEvents.memberId, actorId: onboardingEvents.actorId, at: onboardingEvents.createdAt })
    .from(onboardingEvents)
    .where(and(eq(onboardingEvents.context, context), inArray(onboardingEvents.memberId, memberIds)))
    .orderBy(desc(onboardingEvents.id));
}

/** Every staff row locked, in the order of their ids. */
export async function lockStaffRows(tx: Transaction) {
  return tx.select().from(members).where(eq(members.role, 'staff')).orderBy(asc(members.id)).for('update');
}

/** A staff row's flag or role, with its new version. */
export async function updateStaffAccount(
  tx: Transaction,
  id: string,
  set: Pick<typeof members.$inferInsert, 'version' | 'updatedAt'> & Partial<Pick<typeof members.$inferInsert, 'disabled' | 'staffRole'>>,
) {
  await tx.update(members).set(set).where(eq(members.id, id));
}

/** The row's version moved by one (every logged event moves it); its new version, none when no such row. */
export async function bumpVersion(tx: Transaction, id: string, now: Date) {
  const [bumped] = await tx
    .update(members)
    .set({ version: sql`${members.version} + 1`, updatedAt: now })
    .where(eq(members.id, id))
    .returning({ version: members.version });
  return bumped;
}

/** A new staff row (an accepted invitation). */
export async function insertAccount(tx: Transaction, row: typeof members.$inferInsert) {
  await tx.insert(members).values(row);
}

/** One row of an account's event log. */
export async function insertEvent(tx: Transaction, row: typeof onboardingEvents.$inferInsert) {
  await tx.insert(onboardingEvents).values(row);
}

/** The sessions of `userId` in `sessionsTable` (the auth connection's), deleted. */
export async function deleteSessionsOf(tx: Transaction, sessionsTable: string, userId: string) {
  await tx.execute(sql`DELETE FROM ${sql.raw(sessionsTable)} WHERE user_id = ${userId}::uuid`);
}
