import { describe, expect, it } from 'vitest';
import { CONTRACT_MAX_MONTHS } from '#machines/onboarding/periods.ts';
import {
  activePlans,
  canApplyCoupon,
  couponDescription,
  expectedAmountCents,
  FILE_FEE_CENTS,
  fileFee,
  formatEuros,
  isPlanActive,
  isPlanId,
  offerIds,
  offers,
  planById,
  planDescription,
  planIds,
  plans,
} from '#machines/onboarding/plans.ts';

/** Intl uses narrow no-break spaces in fr-FR; compare with plain spaces. */
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

describe('plans', () => {
  it('has the six plans of the spec, with their exact ids', () => {
    expect(plans.map((p) => p.id)).toEqual([
      'plan_horizon_month',
      'plan_serenity_month',
      'plan_horizon_year',
      'plan_serenity_year',
      'plan_horizon_year_cachback',
      'plan_serenity_year_cachback',
    ]);
    expect(planIds).toEqual(plans.map((p) => p.id));
  });

  it.each([
    ['plan_horizon_month', 'horizon', 'monthly', 6, 9_500, 6, 57_000],
    ['plan_serenity_month', 'serenity', 'monthly', 12, 8_500, 12, 102_000],
    ['plan_horizon_year', 'horizon', 'cash', 6, 57_000, 1, 57_000],
    ['plan_serenity_year', 'serenity', 'cash', 12, 102_000, 1, 102_000],
    ['plan_horizon_year_cachback', 'horizon', 'cashback', 6, 51_300, 1, 51_300],
    ['plan_serenity_year_cachback', 'serenity', 'cashback', 12, 91_800, 1, 91_800],
  ] as const)('%s: %s %s, %i months, %i cents × %i = %i cents', (id, name, type, months, price, installments, total) => {
    const plan = planById(id);
    expect(plan).toMatchObject({ name, type, durationMonths: months, priceCents: price, installments, totalCents: total });
  });

  it('prices are consistent: cash = monthly × months, cash −10 % = cash × 0.9', () => {
    for (const name of ['horizon', 'serenity'] as const) {
      const of = (type: string) => plans.find((p) => p.name === name && p.type === type);
      const monthly = of('monthly');
      const cash = of('cash');
      const cashback = of('cashback');
      expect(cash?.priceCents).toBe((monthly?.priceCents ?? 0) * (monthly?.installments ?? 0));
      expect(cashback?.priceCents).toBe(Math.round((cash?.priceCents ?? 0) * 0.9));
      expect(cashback?.discount).toEqual({ label: '−10 %', originalPriceCents: cash?.priceCents });
    }
  });

  it('every amount is an integer of cents and every contract lasts at most 12 months (L224-90)', () => {
    for (const plan of plans) {
      expect(Number.isInteger(plan.priceCents) && Number.isInteger(plan.totalCents)).toBe(true);
      expect(plan.durationMonths).toBeLessThanOrEqual(CONTRACT_MAX_MONTHS);
      expect(plan.durationMonths).toBe(plan.name === 'horizon' ? 6 : 12);
      expect(plan.features.length).toBeGreaterThanOrEqual(4);
      expect(plan.button.offerId).toBe(plan.id);
    }
  });

  it('exactly one plan is highlighted', () => {
    expect(plans.filter((p) => p.highlight).map((p) => p.id)).toEqual(['plan_serenity_month']);
  });

  it('isPlanId accepts only the six ids', () => {
    expect(isPlanId('plan_serenity_year_cachback')).toBe(true);
    expect(isPlanId('plan_serenity_year_cashback')).toBe(false);
    expect(isPlanId(42)).toBe(false);
  });
});

describe('active plans (decisions §5)', () => {
  it.each([
    ['cash', ['plan_horizon_month', 'plan_horizon_year', 'plan_serenity_month', 'plan_serenity_year']],
    ['cashback', ['plan_horizon_month', 'plan_horizon_year_cachback', 'plan_serenity_month', 'plan_serenity_year_cachback']],
  ] as const)('setting %s: per pack the monthly plan and one pay-in-full plan', (setting, ids) => {
    const active = activePlans(setting);
    expect(active.map((p) => p.id)).toEqual(ids);
    expect(active.filter((p) => p.highlight).map((p) => p.id)).toEqual(['plan_serenity_month']);
    for (const id of planIds) expect(isPlanActive(id, setting)).toBe((ids as readonly string[]).includes(id));
  });

  it('the selected plan takes the highlight, still only one', () => {
    const active = activePlans('cashback', 'plan_horizon_year_cachback');
    expect(active.filter((p) => p.highlight).map((p) => p.id)).toEqual(['plan_horizon_year_cachback']);
  });

  it('a selected plan that is not active leaves the default highlight', () => {
    const active = activePlans('cash', 'plan_horizon_year_cachback');
    expect(active.filter((p) => p.highlight).map((p) => p.id)).toEqual(['plan_serenity_month']);
  });

  it('does not change the shared plan list', () => {
    activePlans('cash', 'plan_horizon_year');
    expect(planById('plan_horizon_year').highlight).toBe(false);
  });
});

describe('file fee', () => {
  it('charges 169 €, its only price: no reference price (decision 195)', () => {
    expect(fileFee.priceCents).toBe(16_900);
    expect(fileFee.discount).toBeNull();
    expect(fileFee.button.offerId).toBe('file_fee');
  });
});

describe('coupon', () => {
  it.each([
    { couponApplied: false, renouncedWithdrawalRight: null, can: true },
    { couponApplied: false, renouncedWithdrawalRight: false, can: true },
    { couponApplied: true, renouncedWithdrawalRight: false, can: false },
    { couponApplied: false, renouncedWithdrawalRight: true, can: false },
    { couponApplied: true, renouncedWithdrawalRight: true, can: false },
  ])('applied=$couponApplied, renounced=$renouncedWithdrawalRight → $can', ({ can, ...state }) => {
    expect(canApplyCoupon(state)).toBe(can);
  });

  it('replaces the plan description', () => {
    expect(couponDescription(6)).toBe('Un accompagnement de 6 mois sans frais supplémentaires');
    const serenity = planById('plan_serenity_month');
    expect(planDescription(serenity, true)).toBe('Un accompagnement de 12 mois sans frais supplémentaires');
    expect(planDescription(serenity, false)).toBe(serenity.description);
  });
});

describe('offers', () => {
  it('one per payment link: file fee and the six plans', () => {
    expect(offerIds).toEqual(['file_fee', ...planIds]);
    expect(offers.map((o) => o.id)).toEqual([...offerIds]);
  });

  it.each([
    ['file_fee', 16_900, null],
    ['plan_horizon_month', 9_500, 6],
    ['plan_serenity_month', 8_500, 12],
    ['plan_horizon_year', 57_000, null],
    ['plan_serenity_year', 102_000, null],
    ['plan_horizon_year_cachback', 51_300, null],
    ['plan_serenity_year_cachback', 91_800, null],
  ] as const)('%s: a paid session shows %i cents (monthly payments: %s)', (id, cents, payments) => {
    expect(expectedAmountCents(id, { couponApplied: false })).toBe(cents);
    expect(offers.find((o) => o.id === id)?.monthlyPayments).toBe(payments);
  });

  it('the coupon waives the file fee and only the file fee', () => {
    expect(expectedAmountCents('file_fee', { couponApplied: true })).toBe(0);
    expect(expectedAmountCents('plan_horizon_month', { couponApplied: true })).toBe(9_500);
    expect(FILE_FEE_CENTS).toBe(16_900);
  });
});

describe('formatEuros', () => {
  it.each([
    [9_500, '95,00 €'],
    [16_900, '169,00 €'],
    [102_000, '1 020,00 €'],
    [91_800, '918,00 €'],
    [5, '0,05 €'],
  ])('%i cents → %s', (cents, text) => {
    expect(plain(formatEuros(cents))).toBe(text);
  });

  it('refuses amounts that are not whole cents', () => {
    expect(() => formatEuros(95.5)).toThrow();
  });
});
