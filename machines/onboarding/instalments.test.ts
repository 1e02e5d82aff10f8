import { describe, expect, it } from 'vitest';
import {
  addMonthsParis,
  instalmentDueAt,
  instalmentOutsideContract,
  instalmentSchedule,
  instalmentStatuses,
} from '#machines/onboarding/instalments.ts';
import { instalmentStatusLabels } from '#machines/onboarding/labels.ts';
import { planById } from '#machines/onboarding/plans.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('addMonthsParis: same day number, same Paris wall-clock time', () => {
  it('keeps the anchor day across short months (31 Jan → 28 Feb → 31 Mar; 29 Feb in a leap year)', () => {
    const first = at('2027-01-31T09:00:00.000Z'); // 10:00 in Paris (winter)
    expect(iso(addMonthsParis(first, 1))).toBe('2027-02-28T09:00:00.000Z');
    expect(iso(addMonthsParis(first, 2))).toBe('2027-03-31T08:00:00.000Z'); // 10:00 in Paris (summer time since 28 March)
    expect(iso(addMonthsParis(first, 3))).toBe('2027-04-30T08:00:00.000Z');
    expect(iso(addMonthsParis(at('2028-01-30T09:00:00.000Z'), 1))).toBe('2028-02-29T09:00:00.000Z');
  });

  it('crosses both DST changes at the same Paris hour, and the year end', () => {
    // 15 March 2027 10:00 Paris (UTC+1) → 15 April 10:00 Paris (UTC+2).
    expect(iso(addMonthsParis(at('2027-03-15T09:00:00.000Z'), 1))).toBe('2027-04-15T08:00:00.000Z');
    // 15 October 2027 10:00 Paris (UTC+2) → 15 November 10:00 Paris (UTC+1).
    expect(iso(addMonthsParis(at('2027-10-15T08:00:00.000Z'), 1))).toBe('2027-11-15T09:00:00.000Z');
    // 31 December 23:30 Paris = 22:30 UTC → 31 January 23:30 Paris, next year.
    expect(iso(addMonthsParis(at('2026-12-31T22:30:00.000Z'), 1))).toBe('2027-01-31T22:30:00.000Z');
    // Midnight Paris on the 1st is still the 1st (UTC says the 30th/31st of the month before).
    expect(iso(addMonthsParis(at('2026-11-30T23:00:00.000Z'), 1))).toBe('2026-12-31T23:00:00.000Z');
  });
});

describe('instalmentSchedule', () => {
  const first = at('2026-12-03T10:00:00.000Z');
  const base = { firstPaidAt: first, recorded: [], stoppedAt: null, termEndsAt: null, now: first } as const;

  it('is null for a plan paid at once, empty before the first payment', () => {
    expect(instalmentSchedule({ ...base, planId: 'plan_serenity_year' })).toBeNull();
    expect(instalmentSchedule({ ...base, planId: 'plan_horizon_year_cachback' })).toBeNull();
    const none = instalmentSchedule({ ...base, planId: 'plan_horizon_month', firstPaidAt: null });
    expect(none?.rows).toEqual([]);
    expect(none?.next).toBeNull();
  });

  it('6 or 12 instalments: the first paid at checkout, the others monthly and à venir', () => {
    for (const planId of ['plan_horizon_month', 'plan_serenity_month'] as const) {
      const plan = planById(planId);
      const s = instalmentSchedule({ ...base, planId });
      expect(s?.of).toBe(plan.installments);
      expect(s?.rows).toHaveLength(plan.installments);
      expect(s?.rows.map((r) => r.number)).toEqual(Array.from({ length: plan.installments }, (_, i) => i + 1));
      expect(s?.rows[0]).toMatchObject({ status: 'payee', paidAt: first, amountCents: plan.priceCents, due: false });
      expect(s?.rows.slice(1).every((r) => r.status === 'a-venir' && !r.due)).toBe(true);
      expect(s?.paidCount).toBe(1);
      expect(s?.paidCents).toBe(plan.priceCents);
      expect(s?.leftCents).toBe(plan.totalCents - plan.priceCents);
      expect(s?.next?.number).toBe(2);
      expect(s?.rows.at(-1)?.dueAt).toBe(instalmentDueAt(first, plan.installments));
    }
  });

  it('an instalment is due from its instant on (one millisecond before: not yet)', () => {
    const second = instalmentDueAt(first, 2);
    expect(instalmentSchedule({ ...base, planId: 'plan_horizon_month', now: second - 1 })?.rows[1]?.due).toBe(false);
    expect(instalmentSchedule({ ...base, planId: 'plan_horizon_month', now: second })?.rows[1]?.due).toBe(true);
  });

  it('a failed instalment is échouée, stays due and owed; a later success makes it payée', () => {
    const second = instalmentDueAt(first, 2);
    const failed = { number: 2, status: 'failed', at: second, amountCents: 9_500 } as const;
    const s = instalmentSchedule({ ...base, planId: 'plan_horizon_month', recorded: [failed], now: second + 1 });
    expect(s?.rows[1]).toMatchObject({ status: 'echouee', failedAt: second, due: true });
    expect(s?.next?.number).toBe(2);
    expect(s?.leftCents).toBe(5 * 9_500);
    const paid = { number: 2, status: 'paid', at: second + 3 * 86_400_000, amountCents: 9_500 } as const;
    for (const recorded of [
      [failed, paid],
      [paid, failed],
    ]) {
      const after = instalmentSchedule({ ...base, planId: 'plan_horizon_month', recorded, now: paid.at });
      expect(after?.rows[1]).toMatchObject({ status: 'payee', paidAt: paid.at, due: false });
      expect(after?.paidCount).toBe(2);
    }
  });

  it('stops after the last instalment: all payées, nothing left, nothing next', () => {
    const recorded = [2, 3, 4, 5, 6].map((n) => ({
      number: n,
      status: 'paid' as const,
      at: instalmentDueAt(first, n),
      amountCents: 9_500,
    }));
    const s = instalmentSchedule({ ...base, planId: 'plan_horizon_month', recorded, now: instalmentDueAt(first, 9) });
    expect(s?.rows.every((r) => r.status === 'payee' && !r.due)).toBe(true);
    expect(s?.leftCents).toBe(0);
    expect(s?.next).toBeNull();
    expect(s?.extra).toEqual([]);
    // A 7th event is outside the plan: kept apart and flagged.
    const seventh = { number: 7, status: 'paid' as const, at: instalmentDueAt(first, 7), amountCents: 9_500 };
    expect(instalmentSchedule({ ...base, planId: 'plan_horizon_month', recorded: [...recorded, seventh] })?.extra).toEqual([seventh]);
  });

  it('stops at a withdrawal: what falls due from then on is annulée, never due; a payment after it is flagged', () => {
    const stoppedAt = instalmentDueAt(first, 3) - 1;
    const recorded = [{ number: 2, status: 'paid' as const, at: instalmentDueAt(first, 2), amountCents: 8_500 }];
    const s = instalmentSchedule({ ...base, planId: 'plan_serenity_month', recorded, stoppedAt, now: instalmentDueAt(first, 12) });
    expect(s?.rows.map((r) => r.status)).toEqual(['payee', 'payee', ...Array(10).fill('annulee')]);
    expect(s?.rows.some((r) => r.due)).toBe(false);
    expect(s?.leftCents).toBe(0);
    const late = [...recorded, { number: 3, status: 'paid' as const, at: instalmentDueAt(first, 3), amountCents: 8_500 }];
    const flagged = instalmentSchedule({
      ...base,
      planId: 'plan_serenity_month',
      recorded: late,
      stoppedAt,
      now: instalmentDueAt(first, 4),
    });
    expect(flagged?.rows[2]).toMatchObject({ status: 'payee', afterEnd: true });
    expect(flagged?.rows[1]?.afterEnd).toBe(false);
  });

  it('stops at the term end when the first payment came late (an instalment falling on or after the end is annulée)', () => {
    const termEndsAt = instalmentDueAt(first, 6); // exactly when the 6th would fall
    const s = instalmentSchedule({ ...base, planId: 'plan_horizon_month', termEndsAt, now: termEndsAt - 1 });
    expect(s?.rows.map((r) => r.status)).toEqual(['payee', 'a-venir', 'a-venir', 'a-venir', 'a-venir', 'annulee']);
    const later = instalmentSchedule({ ...base, planId: 'plan_horizon_month', termEndsAt: termEndsAt + 1, now: termEndsAt });
    expect(later?.rows[5]?.status).toBe('a-venir');
    // Once the term is over, nothing unpaid is owed any more (decision 175): nothing left, no next.
    const over = instalmentSchedule({ ...base, planId: 'plan_horizon_month', termEndsAt, now: termEndsAt + 1 });
    expect(over?.rows.map((r) => r.status)).toEqual(['payee', 'annulee', 'annulee', 'annulee', 'annulee', 'annulee']);
    expect(over?.leftCents).toBe(0);
    expect(over?.next).toBeNull();
  });

  it('instalmentOutsideContract: beyond N, after the stop, at or after the term end', () => {
    const common = { of: 6, stoppedAt: null, termEndsAt: null };
    expect(instalmentOutsideContract({ ...common, number: 6, at: 1 })).toBe(false);
    expect(instalmentOutsideContract({ ...common, number: 7, at: 1 })).toBe(true);
    expect(instalmentOutsideContract({ ...common, number: 3, at: 100, stoppedAt: 100 })).toBe(true);
    expect(instalmentOutsideContract({ ...common, number: 3, at: 99, stoppedAt: 100 })).toBe(false);
    expect(instalmentOutsideContract({ ...common, number: 3, at: 100, termEndsAt: 100 })).toBe(true);
  });

  it('every status has its French label', () => {
    for (const status of instalmentStatuses) expect(instalmentStatusLabels[status]).toMatch(/^[A-ZÀ-Ü][a-zà-ü ]+$/);
  });
});
