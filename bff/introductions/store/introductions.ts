// Introductions as stored: `introductions` (one row per pair, its chart's state, context and version) and their append-only log `introduction_events`.
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { type IntroductionRow, introductionEvents, introductions } from '#bff/db/introductions-schema.ts';
import type { MatchingExecutor } from '#bff/matching/store/match-profiles.ts';
import { MAX_OPEN_INTRODUCTIONS_PER_MEMBER, openStates } from '#machines/introductions/rules.ts';

async function rowsOf<Row>(executor: MatchingExecutor, query: ReturnType<typeof sql>): Promise<Row[]> {
  return ((await executor.execute(query)) as unknown as { rows: Row[] }).rows;
}

const OPEN_TOPS = sql.raw(`ARRAY[${openStates.map((s) => `'${s}'`).join(',')}]::text[]`);

// ---------------------------------------------------------------------------
// Counts and exclusions of a member

/** How many introductions of the member are open now. */
export async function openIntroductionCount(executor: MatchingExecutor, memberId: string): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    executor,
    sql`SELECT count(*)::int AS n FROM introductions
      WHERE (member_a = ${memberId}::uuid OR member_b = ${memberId}::uuid) AND split_part(state, '.', 1) = ANY(${OPEN_TOPS})`,
  );
  return Number(row?.n ?? 0);
}

/** The member has an introduction in `fiancailles`. */
export async function isEngaged(executor: MatchingExecutor, memberId: string): Promise<boolean> {
  const rows = await rowsOf<{ one: number }>(
    executor,
    sql`SELECT 1 AS one FROM introductions WHERE (member_a = ${memberId}::uuid OR member_b = ${memberId}::uuid) AND state = 'fiancailles' LIMIT 1`,
  );
  return rows.length > 0;
}

/**
 * Everyone ever proposed with `memberId`, and every member at the limit of open introductions or
 * engaged (the member themself may be among them).
 */
export async function exclusionIds(executor: MatchingExecutor, memberId: string): Promise<string[]> {
  const rows = await rowsOf<{ id: string }>(
    executor,
    sql`SELECT CASE WHEN member_a = ${memberId}::uuid THEN member_b ELSE member_a END::text AS id FROM introductions
        WHERE member_a = ${memberId}::uuid OR member_b = ${memberId}::uuid
      UNION
      SELECT m.id::text FROM (
        SELECT member_a AS id, state FROM introductions UNION ALL SELECT member_b AS id, state FROM introductions
      ) m
      GROUP BY m.id
      HAVING count(*) FILTER (WHERE split_part(m.state, '.', 1) = ANY(${OPEN_TOPS})) >= ${MAX_OPEN_INTRODUCTIONS_PER_MEMBER}::int
        OR bool_or(m.state = 'fiancailles')`,
  );
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------
// Proposing and re-opening

/** Locks both members' rows (`for update`, in id order) and reads what a proposal checks. */
export async function lockMembersForProposal(tx: Transaction, a: string, b: string) {
  return rowsOf<{ id: string; role: string; onboarding: unknown; erased: boolean }>(
    tx,
    sql`SELECT id::text AS id, role, onboarding, (erased_at IS NOT NULL) AS erased FROM members
        WHERE id IN (${a}::uuid, ${b}::uuid) ORDER BY id FOR UPDATE`,
  );
}

/** Locks both members' rows (`for update`, in id order). */
export async function lockPairMembers(tx: Transaction, memberA: string, memberB: string): Promise<void> {
  await rowsOf(tx, sql`SELECT id FROM members WHERE id IN (${memberA}::uuid, ${memberB}::uuid) ORDER BY id FOR UPDATE`);
}

/** The pair was ever proposed (either order). */
export async function pairEverProposed(tx: Transaction, a: string, b: string): Promise<boolean> {
  const [pair] = await rowsOf<{ one: number }>(
    tx,
    sql`SELECT 1 AS one FROM introductions WHERE least(member_a, member_b) = least(${a}::uuid, ${b}::uuid)
        AND greatest(member_a, member_b) = greatest(${a}::uuid, ${b}::uuid)`,
  );
  return pair !== undefined;
}

export async function insertIntroduction(tx: Transaction, row: typeof introductions.$inferInsert): Promise<IntroductionRow | undefined> {
  const [inserted] = await tx.insert(introductions).values(row).returning();
  return inserted;
}

export async function insertIntroductionEvent(tx: Transaction, row: typeof introductionEvents.$inferInsert): Promise<void> {
  await tx.insert(introductionEvents).values(row);
}

/** Writes the row only if its version is still `version` (optimistic); undefined when someone wrote first. */
export async function updateIntroductionAtVersion(
  tx: Transaction,
  id: string,
  version: number,
  set: Pick<IntroductionRow, 'state' | 'context' | 'version' | 'proposedAt' | 'deadlineAt' | 'updatedAt'>,
): Promise<IntroductionRow | undefined> {
  const [updated] = await tx
    .update(introductions)
    .set(set)
    .where(and(eq(introductions.id, id), eq(introductions.version, version)))
    .returning();
  return updated;
}

// ---------------------------------------------------------------------------
// Reading and locking rows

export async function introductionById(executor: MatchingExecutor, id: string): Promise<IntroductionRow | undefined> {
  const [row] = await executor.select().from(introductions).where(eq(introductions.id, id)).limit(1);
  return row;
}

/** The row, locked (`for update`). */
export async function lockIntroduction(tx: Transaction, id: string): Promise<IntroductionRow | undefined> {
  const [row] = await tx.select().from(introductions).where(eq(introductions.id, id)).for('update').limit(1);
  return row;
}

/** Every introduction of the member, locked (`for update`). */
export async function lockIntroductionsOfMember(tx: Transaction, memberId: string): Promise<IntroductionRow[]> {
  return tx
    .select()
    .from(introductions)
    .where(sql`${introductions.memberA} = ${memberId}::uuid OR ${introductions.memberB} = ${memberId}::uuid`)
    .for('update');
}

/** Every introduction of the member, newest first. */
export async function introductionsOfMember(db: Db, memberId: string): Promise<IntroductionRow[]> {
  return db
    .select()
    .from(introductions)
    .where(sql`${introductions.memberA} = ${memberId}::uuid OR ${introductions.memberB} = ${memberId}::uuid`)
    .orderBy(sql`${introductions.createdAt} DESC, ${introductions.id}`);
}

/** Every introduction, the nearest deadline first. */
export async function introductionsByDeadline(db: Db): Promise<IntroductionRow[]> {
  return db.select().from(introductions).orderBy(introductions.deadlineAt, introductions.id);
}

/** Every introduction in this state. */
export async function introductionsInState(executor: MatchingExecutor, state: string): Promise<IntroductionRow[]> {
  return executor.select().from(introductions).where(eq(introductions.state, state));
}

/** One side's contact choice for this introduction (null: as in their settings). */
export async function updateIntroductionContactVia(
  tx: Transaction,
  id: string,
  set: { contactViaA: string | null; updatedAt: Date } | { contactViaB: string | null; updatedAt: Date },
): Promise<void> {
  await tx.update(introductions).set(set).where(eq(introductions.id, id));
}

export type LoggedEvent = typeof introductionEvents.$inferSelect;

/** The introduction's log, oldest first. */
export async function introductionEventRows(db: Db, introductionId: string): Promise<LoggedEvent[]> {
  return db
    .select()
    .from(introductionEvents)
    .where(eq(introductionEvents.introductionId, introductionId))
    .orderBy(introductionEvents.version);
}

// ---------------------------------------------------------------------------
// The jobs' reads

/** Proposals still waiting (`proposee.*`) proposed at `since` or before. */
export async function proposalsWaitingSince(db: Db, since: Date): Promise<IntroductionRow[]> {
  return db
    .select()
    .from(introductions)
    .where(sql`${introductions.state} LIKE 'proposee.%' AND ${introductions.proposedAt} <= ${since.toISOString()}::timestamptz`);
}

/** `toISOString()`'s form: two such instants compare as texts as they do in time. */
const CANONICAL_INSTANT = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{3}Z$';

/**
 * The member `memberId` is in good standing for the introduction at `now`, as far as their stored
 * row surely says (decision 224): not erased, disabled nor paused, a stage written from the current
 * record (migration 0045), no stop recorded, a term still to come, a signature (in canonical form)
 * no later than the proposal's. A member it does not hold for is read and decided by
 * `standingEndOf`, as before; one it holds for would be found in good standing there too, so the
 * job no longer reads and parses every open introduction's two members every quarter of an hour
 * (at 100 000 members: 8 000 introductions, 21 s and 3.5 s of CPU a pass, for nothing).
 */
function standingSurelyHeld(memberId: typeof introductions.memberA | typeof introductions.memberB, now: Date) {
  const signed = sql`m.onboarding->>'subscriptionDate'`;
  const proposed = sql`${introductions.context}->>'proposedAt'`;
  return sql`SELECT 1 FROM members m WHERE m.id = ${memberId}
    AND NOT m.disabled AND m.erased_at IS NULL AND m.matchmaking_paused_at IS NULL
    AND m.stage IS NOT NULL AND m.term_ends_at > ${now.toISOString()}::timestamptz
    AND m.onboarding->>'contractRenouncedAt' IS NULL AND m.onboarding->>'contractWithdrawnAt' IS NULL
    AND m.onboarding->>'terminatedAt' IS NULL
    AND ${signed} ~ ${CANONICAL_INSTANT}
    AND (${proposed} IS NULL OR (${proposed} ~ ${CANONICAL_INSTANT} AND ${signed} <= ${proposed}))`;
}

/** Introductions under way (and engagements still sharing) of which a member's standing may have ended at `now`. */
export async function introductionsMaybeEnded(db: Db, now: Date): Promise<IntroductionRow[]> {
  return db
    .select()
    .from(introductions)
    .where(
      sql`(split_part(${introductions.state}, '.', 1) = ANY(${OPEN_TOPS}) OR (${introductions.state} = 'fiancailles' AND ${introductions.context} -> 'ended' = 'null'::jsonb))
        AND (NOT EXISTS (${standingSurelyHeld(introductions.memberA, now)}) OR NOT EXISTS (${standingSurelyHeld(introductions.memberB, now)}))`,
    );
}
