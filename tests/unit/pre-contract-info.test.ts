import { describe, expect, it } from 'vitest';
import { agencyIdentity, contractDocument } from '#bff/contract/contract-text.ts';
import { AGENCY_IDENTITY_TEXT, earlyStartCost, earlyStartCostText, MEDIATOR_TEXT } from '#machines/onboarding/pre-contract-info.ts';
import { FILE_FEE_CENTS, formatEuros, planById } from '#machines/onboarding/plans.ts';
import { fillTokens } from '#machines/public-site/fill-tokens.ts';
import { agencyValues } from '#machines/public-site/site-tokens.ts';
import { SAMPLE_AGENCY } from '#tests/support/agency.ts';

/** The pre-contract step says, before signing, what the contract says (decision 198). */
describe('pre-contract information', () => {
  const plan = planById('plan_serenity_month');
  const contract = JSON.stringify(
    contractDocument({
      agency: agencyIdentity(SAMPLE_AGENCY),
      email: 'nadia@example.org',
      form: { fullName: 'Nadia Kaci', address: '3 place Bellecour', postcode: '69002', city: 'Lyon', signature: 'Nadia Kaci' },
      profile: null,
      questionnaire: null,
      plan,
      renounced: true,
      couponApplied: false,
      formCompletedAt: new Date('2026-11-20T10:00:00Z'),
      signedAt: null,
      datedAt: new Date('2026-11-21T09:00:00Z'),
    }),
  );
  const values = agencyValues(SAMPLE_AGENCY);

  it('names the agency and its consumer mediator in the very sentences of the contract', () => {
    const identity = fillTokens(AGENCY_IDENTITY_TEXT, values);
    const mediator = fillTokens(MEDIATOR_TEXT, values);
    expect(identity).not.toContain('{{');
    for (const part of [SAMPLE_AGENCY.legalName, SAMPLE_AGENCY.address, SAMPLE_AGENCY.siret, SAMPLE_AGENCY.phone, SAMPLE_AGENCY.email])
      expect(identity).toContain(part);
    expect(contract).toContain(identity);
    expect(mediator).toBe(`${SAMPLE_AGENCY.mediatorName} (${SAMPLE_AGENCY.mediatorUrl})`);
    expect(contract).toContain(mediator);
  });

  it('says what an early start costs, from the withdrawal refund’s computation', () => {
    // Signed on Wednesday 18 November 2026: the 14th day, Wednesday 2 December, ends the period.
    const weekday = earlyStartCost(plan, Date.UTC(2026, 10, 18, 9));
    expect(weekday.lastDayCents).toBe(Math.round((weekday.totalCents * 14) / 365));
    // Signed on Saturday 21 November: the 14th day is Saturday 5 December, so the period runs to
    // Monday 7 December (civil days, decision 165): 16 days of a 12-month term at most.
    const signedAt = Date.UTC(2026, 10, 21, 9);
    const cost = earlyStartCost(plan, signedAt);
    expect(cost.totalCents).toBe(plan.totalCents + FILE_FEE_CENTS);
    expect(cost.lastDayCents).toBe(Math.round((cost.totalCents * 16) / 365));
    const text = earlyStartCostText(plan, signedAt);
    expect(text).toContain(formatEuros(cost.lastDayCents));
    expect(text).toContain(formatEuros(cost.totalCents));
    expect(text).toContain('L221‑25');
    expect(earlyStartCostText(null, signedAt)).toContain('au prorata du prix total');
  });
});
