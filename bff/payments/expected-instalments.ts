import type { Db } from '#bff/db/database.ts';
import type { Executor } from '#bff/mail/outbox.ts';
import { agencySchedules } from '#bff/payments/instalment-schedules.ts';
import {
  clearStaleMarks,
  type ExpectedLineRow,
  isMarkedStale,
  markedMembersAfter,
  replaceExpectedLines,
  staleMarksOf,
} from '#bff/payments/store/expected-instalments.ts';
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

/**
 * Writes the expected lines of `memberIds` from what the database holds now, and clears their
 * marks (only those not renewed meanwhile by a concurrent write: it is then computed again).
 */
async function storeExpectedInstalments(executor: Executor, memberIds: readonly string[]): Promise<void> {
  if (memberIds.length === 0) return;
  // The marks first: a write that commits after this read renews its mark, which then stays.
  const marks = await staleMarksOf(executor, memberIds);
  const schedules = await agencySchedules(executor, memberIds, TIMELESS);
  const lines: ExpectedLineRow[] = [];
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
  await replaceExpectedLines(executor, memberIds, lines);
  await clearStaleMarks(executor, marks);
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
  if (await isMarkedStale(executor, memberId)) await storeExpectedInstalments(executor, [memberId]);
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
    const marked = await markedMembersAfter(db, after, batch);
    const ids = marked.map((r) => r.member_id);
    if (ids.length === 0) return total;
    await db.transaction(async (tx) => storeExpectedInstalments(tx, ids));
    total += ids.length;
    after = ids.at(-1) as string;
    if (ids.length < batch) return total;
    await nextTurn();
  }
}
