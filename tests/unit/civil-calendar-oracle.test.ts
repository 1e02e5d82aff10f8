import { describe, expect, it } from 'vitest';
import { deadlinesOfSignature } from '#machines/onboarding/legal-deadlines.ts';
import { addDays, civilPeriod, DST_CHANGES, isWorkingDay, parisMidnight, parisTime } from '#tests/support/sequences/civil-calendar.ts';

/**
 * The contract sequences' own calendar (tests/support/sequences/civil-calendar.ts: holidays written
 * out by hand) and the product's (machines/onboarding/legal-deadlines.ts: Easter computed) must give
 * the same periods for every signature of 2030–2035: two ways of counting that agree, so that a
 * disagreement in a sequence points at the product, not at the test.
 */
describe('the sequences’ calendar and the product’s legal deadlines', () => {
  it('give the same 7- and 14-day periods for a signature at any hour of any day of 2030–2035', () => {
    let checked = 0;
    for (let day = '2030-01-01'; day < '2035-12-01'; day = addDays(day, 1)) {
      for (const minutes of [1, 23 * 60 + 59]) {
        const signed = parisMidnight(day) + minutes * 60_000;
        const product = deadlinesOfSignature(signed);
        expect({ lastDay: product.renunciation.lastDay, endsAtMs: product.renunciation.endsAtMs }, `${day} +${minutes} min`).toEqual(
          civilPeriod(signed, 7),
        );
        expect({ lastDay: product.withdrawal.lastDay, endsAtMs: product.withdrawal.endsAtMs }, `${day} +${minutes} min`).toEqual(
          civilPeriod(signed, 14),
        );
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(4_000);
  });

  it('knows the clocks’ changes and the weekends', () => {
    for (const day of DST_CHANGES) {
      // A Sunday, with a 23- or 25-hour day.
      expect(isWorkingDay(day)).toBe(false);
      expect(parisMidnight(addDays(day, 1)) - parisMidnight(day)).not.toBe(24 * 3_600_000);
      expect(parisTime(parisMidnight(day))).toBe('00:00');
    }
    expect(isWorkingDay('2032-03-29')).toBe(false); // Easter Monday, the day after the change
    expect(isWorkingDay('2032-03-30')).toBe(true);
  });
});
