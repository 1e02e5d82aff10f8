// Staff's candidate lists as stored: `member_shortlists` and `never_propose_pairs` (the pair in its stored order, the smaller id first).
import { and, desc, eq, or, sql } from 'drizzle-orm';
import { memberShortlists, neverProposePairs } from '#bff/db/candidate-lists-schema.ts';
import type { Db } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';
import type { MatchingExecutor } from '#bff/matching/store/match-profiles.ts';

/** A member's id and role, or undefined. */
export async function memberRoleOf(executor: MatchingExecutor, id: string) {
  const [row] = await executor.select({ id: members.id, role: members.role }).from(members).where(eq(members.id, id)).limit(1);
  return row;
}

// ——— Shortlist ———

export async function shortlistRows(executor: MatchingExecutor, memberId: string) {
  return executor
    .select({ memberId: memberShortlists.candidateId, profile: members.profile, addedAt: memberShortlists.addedAt })
    .from(memberShortlists)
    .innerJoin(members, eq(members.id, memberShortlists.candidateId))
    .where(eq(memberShortlists.memberId, memberId))
    .orderBy(desc(memberShortlists.addedAt), memberShortlists.candidateId);
}

export async function shortlistCandidateIds(executor: MatchingExecutor, memberId: string): Promise<string[]> {
  const rows = await executor
    .select({ id: memberShortlists.candidateId })
    .from(memberShortlists)
    .where(eq(memberShortlists.memberId, memberId));
  return rows.map((r) => r.id);
}

/** Adds the candidate to the member's shortlist; nothing when already there. */
export async function insertShortlisted(
  executor: MatchingExecutor,
  row: { memberId: string; candidateId: string; addedBy: string; addedAt: Date },
): Promise<void> {
  await executor.insert(memberShortlists).values(row).onConflictDoNothing();
}

/** Removes the candidate from the member's shortlist; true when it was there. */
export async function deleteShortlisted(db: Db, memberId: string, candidateId: string): Promise<boolean> {
  const removed = await db
    .delete(memberShortlists)
    .where(and(eq(memberShortlists.memberId, memberId), eq(memberShortlists.candidateId, candidateId)))
    .returning({ id: memberShortlists.candidateId });
  return removed.length > 0;
}

/** Takes the pair out of both shortlists. */
export async function deleteShortlistedPair(executor: MatchingExecutor, memberId: string, otherId: string): Promise<void> {
  await executor
    .delete(memberShortlists)
    .where(
      or(
        and(eq(memberShortlists.memberId, memberId), eq(memberShortlists.candidateId, otherId)),
        and(eq(memberShortlists.memberId, otherId), eq(memberShortlists.candidateId, memberId)),
      ),
    );
}

// ——— Never propose ———

/** The pairs of this member (lower-case id), newest first. */
export async function neverProposeRows(executor: MatchingExecutor, id: string) {
  return executor
    .select({
      low: neverProposePairs.memberLow,
      high: neverProposePairs.memberHigh,
      reason: neverProposePairs.reason,
      createdAt: neverProposePairs.createdAt,
      createdBy: neverProposePairs.createdBy,
    })
    .from(neverProposePairs)
    .where(or(eq(neverProposePairs.memberLow, id), eq(neverProposePairs.memberHigh, id)))
    .orderBy(desc(neverProposePairs.createdAt));
}

/** The profile and onboarding record of each of these members (any role). */
export async function peopleRows(executor: MatchingExecutor, ids: readonly string[]) {
  return executor
    .select({ id: members.id, profile: members.profile, onboarding: members.onboarding })
    .from(members)
    .where(sql`${members.id} = ANY(${`{${ids.join(',')}}`}::uuid[])`);
}

/** Both ends of the pairs of this member (lower-case id). */
export async function neverProposePairsOf(executor: MatchingExecutor, id: string) {
  return executor
    .select({ low: neverProposePairs.memberLow, high: neverProposePairs.memberHigh })
    .from(neverProposePairs)
    .where(or(eq(neverProposePairs.memberLow, id), eq(neverProposePairs.memberHigh, id)));
}

/** The reason stored for the pair (in its stored order), or null. */
export async function neverProposeReason(executor: MatchingExecutor, low: string, high: string): Promise<string | null> {
  const [row] = await executor
    .select({ reason: neverProposePairs.reason })
    .from(neverProposePairs)
    .where(and(eq(neverProposePairs.memberLow, low), eq(neverProposePairs.memberHigh, high)))
    .limit(1);
  return row?.reason ?? null;
}

/** Records the pair with its reason; a second time, the reason, author and instant are replaced. */
export async function upsertNeverPropose(
  executor: MatchingExecutor,
  row: { memberLow: string; memberHigh: string; reason: string; createdBy: string; createdAt: Date },
): Promise<void> {
  const { reason, createdBy, createdAt } = row;
  await executor
    .insert(neverProposePairs)
    .values(row)
    .onConflictDoUpdate({
      target: [neverProposePairs.memberLow, neverProposePairs.memberHigh],
      set: { reason, createdBy, createdAt },
    });
}

/** Removes the pair (in its stored order); true when it was there. */
export async function deleteNeverPropose(db: Db, low: string, high: string): Promise<boolean> {
  const removed = await db
    .delete(neverProposePairs)
    .where(and(eq(neverProposePairs.memberLow, low), eq(neverProposePairs.memberHigh, high)))
    .returning({ low: neverProposePairs.memberLow });
  return removed.length > 0;
}
