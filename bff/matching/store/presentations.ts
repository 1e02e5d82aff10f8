// Members' short presentations as stored in `member_presentations`: the text, staff's review, the last approved version.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { memberPresentations, type PresentationStatus } from '#bff/db/presentation-schema.ts';
import { members } from '#bff/db/schema.ts';
import type { MatchingExecutor } from '#bff/matching/store/match-profiles.ts';

const columns = {
  body: memberPresentations.body,
  updatedAt: memberPresentations.updatedAt,
  status: memberPresentations.status,
  approvedBody: memberPresentations.approvedBody,
  refusal: memberPresentations.refusal,
  reviewedAt: memberPresentations.reviewedAt,
};

export type PresentationRow = {
  body: string;
  updatedAt: Date;
  status: PresentationStatus;
  approvedBody: string | null;
  refusal: string | null;
  reviewedAt: Date | null;
};

export async function presentationRow(executor: MatchingExecutor, memberId: string): Promise<PresentationRow | undefined> {
  const [row] = await executor.select(columns).from(memberPresentations).where(eq(memberPresentations.memberId, memberId)).limit(1);
  return row;
}

export async function approvedPresentationText(executor: MatchingExecutor, memberId: string): Promise<string | null> {
  const [row] = await executor
    .select({ approved: memberPresentations.approvedBody })
    .from(memberPresentations)
    .where(eq(memberPresentations.memberId, memberId))
    .limit(1);
  return row?.approved ?? null;
}

export async function deletePresentation(executor: MatchingExecutor, memberId: string): Promise<void> {
  await executor.delete(memberPresentations).where(eq(memberPresentations.memberId, memberId));
}

/** Writes the member's text: waiting for staff, unless it is the text staff last approved; a refusal is cleared. */
export async function upsertPresentation(executor: MatchingExecutor, memberId: string, text: string, now: Date): Promise<PresentationRow> {
  const status = sql<PresentationStatus>`CASE WHEN ${memberPresentations.approvedBody} = ${text} THEN 'approuvee' ELSE 'en-attente' END`;
  const [row] = await executor
    .insert(memberPresentations)
    .values({ memberId, body: text, updatedAt: now, status: 'en-attente' })
    .onConflictDoUpdate({
      target: memberPresentations.memberId,
      set: { body: text, updatedAt: now, status, refusal: null },
    })
    .returning(columns);
  return row as PresentationRow;
}

/** Every presentation waiting (members only), the oldest first, at most 200. */
export async function waitingPresentationRows(executor: MatchingExecutor) {
  return executor
    .select({ memberId: members.id, profile: members.profile, ...columns })
    .from(memberPresentations)
    .innerJoin(members, eq(members.id, memberPresentations.memberId))
    .where(and(eq(memberPresentations.status, 'en-attente'), eq(members.role, 'member')))
    .orderBy(asc(memberPresentations.updatedAt), asc(members.id))
    .limit(200);
}

/** The member's presentation, locked for the review (`for update`). */
export async function lockPresentation(tx: Db | Transaction, memberId: string): Promise<PresentationRow | undefined> {
  const [row] = await tx.select(columns).from(memberPresentations).where(eq(memberPresentations.memberId, memberId)).for('update').limit(1);
  return row;
}

/** Records staff's review. */
export async function updatePresentationReview(
  tx: Db | Transaction,
  memberId: string,
  set:
    | { status: 'approuvee'; approvedBody: string; refusal: null; reviewedAt: Date; reviewedBy: string }
    | { status: 'refusee'; refusal: string; reviewedAt: Date; reviewedBy: string },
): Promise<PresentationRow> {
  const [updated] = await tx.update(memberPresentations).set(set).where(eq(memberPresentations.memberId, memberId)).returning(columns);
  return updated as PresentationRow;
}

/** Which of these members wrote a presentation (their ids as stored). */
export async function presentationMemberIds(executor: MatchingExecutor, ids: readonly string[]): Promise<string[]> {
  const rows = await executor
    .select({ id: memberPresentations.memberId })
    .from(memberPresentations)
    .where(inArray(memberPresentations.memberId, [...ids]));
  return rows.map((r) => r.id);
}
