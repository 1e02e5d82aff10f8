import { describe, expect, it } from 'vitest';
import { contractEnd } from '#machines/onboarding/contract-end.ts';
import { DAY_MS, toIsoInstant } from '#machines/onboarding/instant.ts';
import { termEndsAtMs } from '#machines/onboarding/periods.ts';

const signed = Date.parse('2026-12-07T10:03:00Z');
const base = {
  subscriptionDate: toIsoInstant(signed),
  selectedPlanId: 'plan_serenity_month' as const,
  contractRenouncedAt: null,
  contractWithdrawnAt: null,
  terminatedAt: null,
};

describe('contractEnd (decision 176)', () => {
  it('is null before a signature and while the contract runs', () => {
    expect(contractEnd({ ...base, subscriptionDate: null }, signed)).toBeNull();
    expect(contractEnd(base, signed + 100 * DAY_MS)).toBeNull();
  });

  it('names the right exercised and its instant, whatever the term would say', () => {
    const at = toIsoInstant(signed + 3 * DAY_MS);
    expect(contractEnd({ ...base, contractRenouncedAt: at }, signed + 4 * DAY_MS)).toEqual({
      at: signed + 3 * DAY_MS,
      reason: 'renonciation',
    });
    expect(contractEnd({ ...base, contractWithdrawnAt: at }, signed + 400 * DAY_MS)).toEqual({
      at: signed + 3 * DAY_MS,
      reason: 'retractation',
    });
    expect(contractEnd({ ...base, terminatedAt: at }, signed + 4 * DAY_MS)?.reason).toBe('resiliation');
  });

  it('is the term once it is reached, not a millisecond before', () => {
    const term = termEndsAtMs(base) ?? 0;
    expect(contractEnd(base, term - 1)).toBeNull();
    expect(contractEnd(base, term)).toEqual({ at: term, reason: 'terme' });
  });
});
