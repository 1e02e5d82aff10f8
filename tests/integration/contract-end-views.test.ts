import { and, eq, ne, sql, sum } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { refunds } from '#bff/db/refunds-schema.ts';
import { DAY_MS, toIsoInstant } from '#machines/onboarding/instant.ts';
import { instalmentDueAt } from '#machines/onboarding/instalments.ts';
import { contractEndsAtMs } from '#machines/onboarding/periods.ts';
import { parisFields } from '#machines/paris-time.ts';
import { chargeInstalments } from '#tests/support/contract-ledger.ts';
import { sendUpdate, signUpMember, walkToPaidContract } from '#tests/support/member-walk.ts';
import { walkOnboarding } from '#tests/support/onboarding-walk.ts';
import { type StaffSession, startWithStaffForSuite } from '#tests/support/staff.ts';
import type { TestProduct } from '#tests/support/test-product.ts';
import { requestTermination, samplePdf } from '#tests/support/termination.ts';

/**
 * Issue 59 point 3: what the member's screens' APIs say of an ended contract equals its ledger, for
 * each way a contract ends (renunciation, withdrawal, accepted termination, the term). « Mon
 * accompagnement » and « Mes droits » read `GET /user/progress` (`term.ended`: the day, the reason
 * in words, what was refunded); the schedule reads `GET /user/instalments`. The ledger is the
 * `contracts` row (its stop and reason) and the `refunds` of that contract.
 */

const clock = fakeClock(new Date());
let product: TestProduct;
let staff: StaffSession;
startWithStaffForSuite(clock, (started) => ({ product, staff } = started));

const db = () => product.database.db;
type Member = Awaited<ReturnType<typeof signUpMember>>;

interface Ended {
  on: string;
  reason: string;
  refundedCents: number;
}
const progress = async (member: Member) =>
  (await member.agent.json<{ term: { endsOn: string | null; ended: Ended | null } }>(member.agent.get('/api/v1/user/progress'))).term;
const schedule = async (member: Member) =>
  (
    await member.agent.json<{
      schedule: { leftCents: number; refundedCents: number; next: unknown; rows: { status: string; refundedCents: number }[] } | null;
    }>(member.agent.get('/api/v1/user/instalments'))
  ).schedule;

const parisDay = (ms: number) => {
  const f = parisFields(ms);
  return `${f.year}-${String(f.month).padStart(2, '0')}-${String(f.day).padStart(2, '0')}`;
};

/** The ledger of the member's latest contract: its stop, its reason, and what its refunds (not failed) gave back. */
async function ledgerOf(memberId: string) {
  const result = (await db().execute(
    sql`SELECT id, stopped_at, stop_reason, ends_at FROM contracts WHERE member_id = ${memberId}::uuid ORDER BY signed_at DESC LIMIT 1`,
  )) as unknown as { rows: { id: number; stopped_at: string | null; stop_reason: string | null; ends_at: string | null }[] };
  const row = result.rows[0];
  if (!row) throw new Error('no contract');
  const [given] = await db()
    .select({ cents: sum(refunds.amountCents).mapWith(Number) })
    .from(refunds)
    .where(and(eq(refunds.contractId, Number(row.id)), ne(refunds.status, 'failed')));
  return {
    stoppedAt: row.stopped_at ? new Date(row.stopped_at).getTime() : null,
    reason: row.stop_reason,
    endsAt: row.ends_at ? new Date(row.ends_at).getTime() : null,
    refundedCents: given?.cents ?? 0,
  };
}

const words = {
  renunciation: 'renonciation dans les 7 jours',
  withdrawal: 'rétractation dans les 14 jours',
  termination: 'résiliation pour motif légitime',
  term: 'arrivée à son terme',
} as const;

/** The member's end, as the APIs say it, equals the ledger; nothing « prend fin » any more; the schedule owes nothing. */
async function expectViewsEqualLedger(member: Member, reason: keyof typeof words) {
  const ledger = await ledgerOf(member.id);
  expect(ledger.reason).toBe(reason);
  expect(ledger.stoppedAt).not.toBeNull();
  const term = await progress(member);
  expect(term.endsOn).toBeNull();
  // The term's day is the contract's last day (it stops at midnight after it); a right's is its own day.
  const day = parisDay(reason === 'term' ? (ledger.stoppedAt ?? 0) - 1 : (ledger.stoppedAt ?? 0));
  expect(term.ended).toEqual({ on: day, reason: words[reason], refundedCents: ledger.refundedCents });
  const plan = await schedule(member);
  if (plan) {
    expect(plan.leftCents).toBe(0);
    expect(plan.next).toBeNull();
    expect(plan.rows.some((r) => r.status === 'a-venir' || r.status === 'echouee')).toBe(false);
  }
  return ledger;
}

async function activeMonthly(planId: 'plan_serenity_month' | 'plan_horizon_month') {
  clock.set(new Date());
  const member = await signUpMember(product, 'registre');
  const { signedAt } = await walkToPaidContract({ member, staff, clock, planId });
  const firstPaidAt = clock.now().getTime();
  clock.set(new Date(signedAt + 15 * DAY_MS));
  expect((await sendUpdate(staff.agent, { context: 'meeting_mm', uid: member.id })).body.state).toBe('membre-actif');
  return { member, signedAt, firstPaidAt };
}

describe('the end of a contract, as the member’s APIs say it, equals its ledger', () => {
  it('renunciation on day 3: nothing paid, nothing refunded', async () => {
    clock.set(new Date());
    const member = await signUpMember(product, 'registre');
    const { signedAt } = await walkOnboarding({ member, staff, clock, until: 'sub_date' });
    if (signedAt === null) throw new Error('not signed');
    clock.set(new Date(signedAt + 3 * DAY_MS));
    expect((await sendUpdate(member.agent, { context: 'renounce', confirm: true })).body.state).toBe('renonce');
    const ledger = await expectViewsEqualLedger(member, 'renunciation');
    expect(ledger.refundedCents).toBe(0);
  });

  it('withdrawal on day 10 after paying: everything paid comes back, as the ledger says', async () => {
    clock.set(new Date());
    const member = await signUpMember(product, 'registre');
    const { signedAt } = await walkToPaidContract({ member, staff, clock, planId: 'plan_horizon_month' });
    clock.set(new Date(signedAt + 10 * DAY_MS));
    expect((await sendUpdate(member.agent, { context: 'withdraw', confirm: true })).body.state).toBe('retracte');
    const ledger = await expectViewsEqualLedger(member, 'withdrawal');
    expect(ledger.refundedCents).toBeGreaterThan(0);
  });

  it('termination accepted after an instalment taken during review: the refund counts it, the APIs say the ledger’s sum', async () => {
    const { member, firstPaidAt } = await activeMonthly('plan_serenity_month');
    clock.set(new Date(instalmentDueAt(firstPaidAt, 2) - 3 * DAY_MS));
    const asked = await requestTermination(
      member.agent,
      { reason: 'demenagement', explanation: 'Je pars vivre au Canada pour mon travail.' },
      { bytes: samplePdf(), name: 'attestation.pdf', type: 'application/pdf' },
    );
    expect(asked.body.state).toBe('resiliation-demandee');
    clock.set(new Date(instalmentDueAt(firstPaidAt, 2)));
    expect(await chargeInstalments(product, member.id)).toMatchObject({ paid: 1 });
    clock.set(new Date(instalmentDueAt(firstPaidAt, 2) + 60 * 60 * 1000));
    expect((await sendUpdate(staff.agent, { context: 'terminate_ok', uid: member.id })).body.state).toBe('resilie');
    const ledger = await expectViewsEqualLedger(member, 'termination');
    expect(ledger.refundedCents).toBeGreaterThan(0);
    // A month later nothing more is taken, and the APIs still say the same.
    clock.set(new Date(instalmentDueAt(firstPaidAt, 3)));
    expect(await chargeInstalments(product, member.id)).toMatchObject({ paid: 0 });
    expect((await progress(member)).ended?.refundedCents).toBe(ledger.refundedCents);
  });

  it('the term: the end day is the contract’s last day, nothing refunded', async () => {
    const { member, firstPaidAt, signedAt } = await activeMonthly('plan_horizon_month');
    for (const k of [2, 3, 4, 5, 6]) {
      clock.set(new Date(instalmentDueAt(firstPaidAt, k)));
      expect(await chargeInstalments(product, member.id)).toMatchObject({ paid: 1 });
    }
    const end = contractEndsAtMs(toIsoInstant(signedAt), 6) ?? 0;
    clock.set(new Date(end + 60_000));
    await chargeInstalments(product, member.id);
    const ledger = await expectViewsEqualLedger(member, 'term');
    expect(ledger.stoppedAt).toBe(end);
    expect(ledger.refundedCents).toBe(0);
  });
});
