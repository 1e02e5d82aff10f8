import { sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import type { Executor } from '#bff/mail/outbox.ts';
import { agencySchedules } from '#bff/payments/instalment-schedules.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';

/**
 * The lines the monthly schedules still expect, stored (migration 0052, decision 213): each
 * member's current schedule's unpaid instalments (to come, failed, cancelled) with the status
 * time leaves them and the instant (`ends_at`, the contract's stop or term) from which every
 * unpaid line is cancelled. Written from the schedule's arithmetic (`agencySchedules`, the very
 * computation of the member's own view) in the transaction of each event that fixes them; a
 * trigger marks the member on any other write to what a schedule is made of, and the marked
 * members are recomputed before the billing view reads the lines (and at start-up).
 */

/** Computed as at the epoch: the schedule's statuses with time taken out (`ends_at` puts it back, in SQL). */
const TIMELESS = new Date(0);

async function rowsOf<Row>(executor: Executor, query: ReturnType<typeof sql>): Promise<Row[]> {
  return ((await executor.execute(query)) as unknown as { rows: Row[] }).rows;
}

/**
 * Writes the expected lines of `memberIds` from what the database holds now, and clears their
 * marks (only those not renewed meanwhile by a concurrent write: it is then computed again).
 */
async function storeExpectedInstalments(executor: Executor, memberIds: readonly string[]): Promise<void> {
  if (memberIds.length === 0) return;
  const ids = JSON.stringify(memberIds);
  // The marks first: a write that commits after this read renews its mark, which then stays.
  const marks = await rowsOf<{ member_id: string; generation: string }>(
    executor,
    sql`SELECT member_id, generation::text AS generation FROM expected_instalments_stale
        WHERE member_id IN (SELECT value::uuid FROM jsonb_array_elements_text(${ids}::jsonb))`,
  );
  const schedules = await agencySchedules(executor, memberIds, TIMELESS);
  const lines: Record<string, unknown>[] = [];
  for (const [memberId, current] of schedules) {
    for (const row of current.schedule.rows) {
      if (row.status !== 'a-venir' && row.status !== 'echouee' && row.status !== 'annulee') continue;
      lines.push({
        member_id: memberId,
        number: row.number,
        subscription_id: current.subscriptionId,
        plan_id: current.schedule.planId,
        of: row.of,
        due_at: new Date(row.dueAt).toISOString(),
        amount_cents: row.amountCents,
        status: row.status,
        ends_at: current.endsAt === null ? null : new Date(current.endsAt).toISOString(),
      });
    }
  }
  await executor.execute(
    sql`DELETE FROM expected_instalments WHERE member_id IN (SELECT value::uuid FROM jsonb_array_elements_text(${ids}::jsonb))`,
  );
  if (lines.length > 0)
    await executor.execute(sql`INSERT INTO expected_instalments AS x
        (member_id, number, subscription_id, plan_id, of, due_at, amount_cents, status, ends_at)
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(lines)}::jsonb) AS l(member_id uuid, number integer, subscription_id text,
        plan_id text, of integer, due_at timestamptz, amount_cents integer, status text, ends_at timestamptz)
      ON CONFLICT (member_id, number) DO UPDATE SET subscription_id = excluded.subscription_id, plan_id = excluded.plan_id,
        of = excluded.of, due_at = excluded.due_at, amount_cents = excluded.amount_cents, status = excluded.status, ends_at = excluded.ends_at`);
  if (marks.length > 0)
    await executor.execute(sql`DELETE FROM expected_instalments_stale s
      USING jsonb_to_recordset(${JSON.stringify(marks)}::jsonb) AS k(member_id uuid, generation bigint)
      WHERE s.member_id = k.member_id AND s.generation = k.generation`);
}

/**
 * In an event's transaction, after its writes: the member's expected lines written now if this
 * transaction (or an earlier writer) marked them. A member never signed has no schedule: no read.
 */
export async function settleExpectedInstalments(
  executor: Executor,
  memberId: string,
  records: readonly (OnboardingRecord | null)[] = [],
): Promise<void> {
  if (records.length > 0 && records.every((r) => !r?.subscriptionDate)) return;
  const [marked] = await rowsOf<{ n: number }>(
    executor,
    sql`SELECT 1 AS n FROM expected_instalments_stale WHERE member_id = ${memberId}::uuid`,
  );
  if (marked) await storeExpectedInstalments(executor, [memberId]);
}

/** Yields to the event loop between batches: a long backfill never holds it. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Writes the lines of every marked member (a script, a test, the rows before migration 0052: the
 * backfill), in batches, each in its own transaction. Cheap when none is marked. Returns how many.
 */
export async function refreshExpectedInstalments(db: Db, batch = 200): Promise<number> {
  let total = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    // In member order from where the last batch ended: a member marked again meanwhile waits for the next call.
    const marked = await rowsOf<{ member_id: string }>(
      db,
      sql`SELECT member_id::text FROM expected_instalments_stale WHERE member_id > ${after}::uuid ORDER BY member_id LIMIT ${batch}`,
    );
    const ids = marked.map((r) => r.member_id);
    if (ids.length === 0) return total;
    await db.transaction(async (tx) => storeExpectedInstalments(tx, ids));
    total += ids.length;
    after = ids.at(-1) as string;
    if (ids.length < batch) return total;
    await nextTurn();
  }
}
