// A member's introductions and their events, as read for the member's export and scrubbed by an erasure.
import { asc, eq, sql } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { introductionEvents, introductions } from '#bff/db/introductions-schema.ts';

const ofMember = (memberId: string) => sql`${introductions.memberA} = ${memberId}::uuid OR ${introductions.memberB} = ${memberId}::uuid`;

/** The member's introductions, either side, oldest first. */
export function introductionsOfMember(db: Db, memberId: string) {
  return db.select().from(introductions).where(ofMember(memberId)).orderBy(asc(introductions.createdAt));
}

/** An introduction's events, in order. */
export function introductionEventsOf(db: Db, introductionId: string) {
  return db
    .select()
    .from(introductionEvents)
    .where(eq(introductionEvents.introductionId, introductionId))
    .orderBy(asc(introductionEvents.version));
}

/** The member's introductions, either side, locked. */
export function lockIntroductionsOfMember(tx: Transaction, memberId: string) {
  return tx.select().from(introductions).where(ofMember(memberId)).for('update');
}

/** Writes an introduction's scrubbed context and notes. */
export async function updateIntroduction(
  tx: Transaction,
  id: string,
  change: Pick<typeof introductions.$inferInsert, 'context' | 'noteA' | 'noteB' | 'updatedAt'>,
): Promise<void> {
  await tx.update(introductions).set(change).where(eq(introductions.id, id));
}
