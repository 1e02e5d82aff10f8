import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { agencyBillingPage } from '#bff/payments/agency-billing.ts';
import { type BillingEntry, billingEntries, billingOrder, entryJson } from '#bff/payments/billing.ts';
import { DAY_MS } from '#machines/onboarding/instant.ts';
import { instalmentDueAt } from '#machines/onboarding/instalments.ts';
import { deadlinesOfSignature } from '#machines/onboarding/legal-deadlines.ts';
import { chargeInstalments } from '#tests/support/contract-ledger.ts';
import { sendUpdate, signUpMember, walkToPaidContract } from '#tests/support/member-walk.ts';
import { type StaffSession, startWithStaffForSuite } from '#tests/support/staff.ts';
import type { TestProduct } from '#tests/support/test-product.ts';
import { requestTermination, samplePdf } from '#tests/support/termination.ts';

/**
 * Decision 213: the lines the schedules still expect are stored in the transaction of each event
 * that fixes them (a payment, an instalment paid or failed, a withdrawal, a termination, a
 * refund). After every step of real sequences over HTTP: no member is left marked (nothing was
 * written outside the event), and at every instant that moves a line (each due date and the
 * contract's end, either side, and long after) the agency's SQL view gives for the member exactly
 * the lines the schedule's arithmetic computes from the records (the member's own view).
 */

const clock = fakeClock(new Date());
let product: TestProduct;
let staff: StaffSession;
startWithStaffForSuite(clock, (started) => ({ product, staff } = started));

const db = () => product.database.db;
const rows = async <Row>(query: ReturnType<typeof sql>) => ((await db().execute(query)) as unknown as { rows: Row[] }).rows;
const scheduleLines = (entries: readonly BillingEntry[], memberId: string) =>
  entries.filter((e) => e.memberId === memberId && e.key.startsWith('schedule:')).map(entryJson);

async function storedEqualsComputed(memberId: string, step: string): Promise<number> {
  // Written with the event: nothing left for the read to recompute.
  expect(await rows(sql`SELECT 1 FROM expected_instalments_stale WHERE member_id = ${memberId}::uuid`), step).toEqual([]);
  const stored = await rows<{ due_at: string | Date; ends_at: string | Date | null }>(
    sql`SELECT due_at, ends_at FROM expected_instalments WHERE member_id = ${memberId}::uuid`,
  );
  const moments = new Set<number>([clock.now().getTime(), clock.now().getTime() + 800 * DAY_MS]);
  for (const row of stored)
    for (const at of [row.due_at, row.ends_at]) {
      if (at === null) continue;
      const ms = new Date(at).getTime();
      for (const t of [ms - 1, ms, ms + 1]) moments.add(t);
    }
  for (const t of [...moments].sort()) {
    const now = new Date(t);
    const computed = scheduleLines((await billingEntries(db(), { memberId }, now)).sort(billingOrder), memberId);
    const page = await agencyBillingPage(db(), { kind: 'instalment' }, { page: 1, perPage: 500 }, now);
    expect(scheduleLines(page.entries, memberId), `${step} at ${now.toISOString()}`).toEqual(computed);
  }
  return stored.length;
}

async function subscribed(prefix: string, planId: 'plan_serenity_month') {
  clock.set(new Date());
  const member = await signUpMember(product, prefix);
  const { signedAt } = await walkToPaidContract({ member, staff, clock, planId });
  return { member, signedAt, firstPaidAt: clock.now().getTime() };
}

describe('the stored expected instalments equal the computed ones', () => {
  it('after a payment, instalments paid and failed, a termination and its refund', async () => {
    const { member, firstPaidAt } = await subscribed('attendues', 'plan_serenity_month');
    expect(await storedEqualsComputed(member.id, 'payment')).toBeGreaterThan(0);

    clock.set(new Date(instalmentDueAt(firstPaidAt, 2)));
    expect(await chargeInstalments(product, member.id, 'paid')).toMatchObject({ paid: 1 });
    await storedEqualsComputed(member.id, 'instalment 2 paid');

    clock.set(new Date(instalmentDueAt(firstPaidAt, 3)));
    expect(await chargeInstalments(product, member.id, 'failed')).toMatchObject({ failed: 1 });
    await storedEqualsComputed(member.id, 'instalment 3 failed');

    clock.set(new Date(instalmentDueAt(firstPaidAt, 3) + DAY_MS));
    expect((await sendUpdate(staff.agent, { context: 'meeting_mm', uid: member.id })).body.state).toBe('membre-actif');
    await storedEqualsComputed(member.id, 'active');

    const asked = await requestTermination(
      member.agent,
      { reason: 'demenagement', explanation: 'Je pars vivre au Canada.' },
      { bytes: samplePdf('Contrat de travail'), name: 'contrat.pdf', type: 'application/pdf' },
    );
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    await storedEqualsComputed(member.id, 'termination requested');

    clock.set(new Date(clock.now().getTime() + 3 * DAY_MS));
    const accepted = await sendUpdate(staff.agent, { context: 'terminate_ok', uid: member.id });
    expect(accepted.body.state, JSON.stringify(accepted.body)).toBe('resilie');
    // The refund is made after the decision's transaction, in its own (with the lines).
    expect(await rows(sql`SELECT status FROM refunds WHERE member_id = ${member.id}::uuid`)).not.toEqual([]);
    expect(await storedEqualsComputed(member.id, 'terminated and refunded')).toBeGreaterThan(0);
  }, 120_000);

  it('after a withdrawal (instalment 1 refunded), and a write that did not store them (marked, then written by the read)', async () => {
    const { member, signedAt } = await subscribed('retractee', 'plan_serenity_month');
    clock.set(new Date(Math.min(signedAt + 10 * DAY_MS, deadlinesOfSignature(signedAt).withdrawal.endsAtMs - DAY_MS)));
    expect((await sendUpdate(member.agent, { context: 'withdraw', confirm: true })).body.state).toBe('retracte');
    await storedEqualsComputed(member.id, 'withdrawn');

    // A script changes a refund behind the server's back: the trigger marks the member, the read writes the lines.
    await db().execute(sql`UPDATE refunds SET status = 'failed' WHERE member_id = ${member.id}::uuid`);
    expect(await rows(sql`SELECT 1 FROM expected_instalments_stale WHERE member_id = ${member.id}::uuid`)).toHaveLength(1);
    await agencyBillingPage(db(), {}, { page: 1, perPage: 1 }, clock.now());
    await storedEqualsComputed(member.id, 'refund failed by a script');
  }, 120_000);
});
