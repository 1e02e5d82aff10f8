// Members' guardians (walī) as stored in `member_guardians`: one optional row per member.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { type GuardianRow, memberGuardians } from '#bff/db/guardian-schema.ts';
import type { MatchingExecutor } from '#bff/matching/store/match-profiles.ts';

export async function guardianRow(executor: MatchingExecutor, memberId: string): Promise<GuardianRow | undefined> {
  const [row] = await executor.select().from(memberGuardians).where(eq(memberGuardians.memberId, memberId)).limit(1);
  return row;
}

/** Creates or replaces the member's guardian (`createdAt` only on creation). */
export async function upsertGuardian(
  db: Db,
  memberId: string,
  values: Omit<typeof memberGuardians.$inferInsert, 'memberId' | 'createdAt'>,
  createdAt: Date,
): Promise<GuardianRow | undefined> {
  const [row] = await db
    .insert(memberGuardians)
    .values({ memberId, ...values, createdAt })
    .onConflictDoUpdate({ target: memberGuardians.memberId, set: values })
    .returning();
  return row;
}

/** Removes the member's guardian; true when there was one. */
export async function deleteGuardianRow(db: Db, memberId: string): Promise<boolean> {
  const rows = await db.delete(memberGuardians).where(eq(memberGuardians.memberId, memberId)).returning({ id: memberGuardians.memberId });
  return rows.length > 0;
}

/**
 * Guardians' mails about any introduction of `memberId` (theirs or the other side's), for erasure:
 * the copies and contacts, and the first meeting's and the end's mails to a walī (decisions 197 and 205, `…:wali-a|b`).
 */
export function guardianMailsOfMember(memberId: string) {
  return sql`(dedupe_key LIKE 'guardian-%' OR ((dedupe_key LIKE 'introduction-meeting-%' OR dedupe_key LIKE 'introduction-ended:%') AND split_part(dedupe_key, ':', 4) LIKE 'wali-%'))
    AND split_part(dedupe_key, ':', 2) IN (
    SELECT id::text FROM introductions WHERE member_a = ${memberId}::uuid OR member_b = ${memberId}::uuid)`;
}
