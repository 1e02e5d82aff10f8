import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addCalendarDays,
  civilPeriod,
  contractDeadlines,
  deadlinesOfSignature,
  easterSunday,
  frenchPublicHolidays,
  isWorkingDay,
  NO_PAYMENT_PERIOD_DAYS,
  renunciationOpen,
  subscriptionPaymentOpen,
  subscriptionPaymentOpensAt,
  WITHDRAWAL_PERIOD_DAYS,
  withdrawalOpen,
  withdrawalPeriodEndsAt,
  withdrawalPeriodOver,
} from '#machines/onboarding/legal-deadlines.ts';
import { parisDayOf, parisDayStartMs } from '#machines/paris-time.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

describe('Easter and the French public holidays', () => {
  it.each([
    [2000, '2000-04-23'],
    [2008, '2008-03-23'],
    [2011, '2011-04-24'],
    [2019, '2019-04-21'],
    [2024, '2024-03-31'],
    [2025, '2025-04-20'],
    [2026, '2026-04-05'],
    [2027, '2027-03-28'],
    [2028, '2028-04-16'],
    [2029, '2029-04-01'],
    [2030, '2030-04-21'],
    [2038, '2038-04-25'],
  ])('Easter %i is %s', (year, day) => {
    expect(easterSunday(year)).toBe(day);
  });

  it('lists the eleven holidays of 2026 and 2027, Easter-based ones included', () => {
    expect(frenchPublicHolidays(2026)).toEqual([
      '2026-01-01',
      '2026-04-06', // Easter Monday
      '2026-05-01',
      '2026-05-08',
      '2026-05-14', // Ascension
      '2026-05-25', // Whit Monday
      '2026-07-14',
      '2026-08-15',
      '2026-11-01',
      '2026-11-11',
      '2026-12-25',
    ]);
    expect(frenchPublicHolidays(2027)).toContain('2027-03-29');
    expect(frenchPublicHolidays(2027)).toContain('2027-05-06');
    expect(frenchPublicHolidays(2027)).toContain('2027-05-17');
  });

  it('knows working days: not Saturday, not Sunday, not a holiday', () => {
    expect(isWorkingDay('2026-12-14')).toBe(true); // Monday
    expect(isWorkingDay('2026-12-12')).toBe(false); // Saturday
    expect(isWorkingDay('2026-12-13')).toBe(false); // Sunday
    expect(isWorkingDay('2026-05-14')).toBe(false); // Ascension, a Thursday
    expect(isWorkingDay('2026-11-11')).toBe(false); // Armistice, a Wednesday
  });

  it('adds calendar days across months, years and leap days', () => {
    expect(addCalendarDays('2026-12-25', 7)).toBe('2027-01-01');
    expect(addCalendarDays('2028-02-22', 7)).toBe('2028-02-29');
    expect(addCalendarDays('2026-03-25', 7)).toBe('2026-04-01');
  });
});

/**
 * Real signatures, Paris time. `renunciation` and `withdrawal` are the last days (inclusive); each
 * period ends at 24:00 Paris that day, and payment opens at that instant.
 */
const TABLE: { label: string; signedAt: string; renunciation: string; withdrawal: string }[] = [
  {
    label: 'the issue’s Monday 7 Dec 2026 at 11:03',
    signedAt: '2026-12-07T11:03:00+01:00',
    renunciation: '2026-12-14',
    withdrawal: '2026-12-21',
  },
  { label: 'day 7 and day 14 on a Saturday', signedAt: '2026-12-05T15:00:00+01:00', renunciation: '2026-12-14', withdrawal: '2026-12-21' },
  { label: 'day 7 and day 14 on a Sunday', signedAt: '2026-12-06T09:00:00+01:00', renunciation: '2026-12-14', withdrawal: '2026-12-21' },
  {
    label: 'day 7 on 1 May (Friday), day 14 on 8 May (Friday)',
    signedAt: '2026-04-24T10:00:00+02:00',
    renunciation: '2026-05-04',
    withdrawal: '2026-05-11',
  },
  { label: 'day 7 on 14 July (Tuesday)', signedAt: '2026-07-07T10:00:00+02:00', renunciation: '2026-07-15', withdrawal: '2026-07-21' },
  { label: 'day 14 on 14 July (Tuesday)', signedAt: '2026-06-30T10:00:00+02:00', renunciation: '2026-07-07', withdrawal: '2026-07-15' },
  {
    label: 'day 7 on Ascension (Thursday 14 May 2026)',
    signedAt: '2026-05-07T10:00:00+02:00',
    renunciation: '2026-05-15',
    withdrawal: '2026-05-21',
  },
  { label: 'day 14 on Ascension', signedAt: '2026-04-30T10:00:00+02:00', renunciation: '2026-05-07', withdrawal: '2026-05-15' },
  {
    label: 'day 7 on Whit Monday (25 May 2026)',
    signedAt: '2026-05-18T10:00:00+02:00',
    renunciation: '2026-05-26',
    withdrawal: '2026-06-01',
  },
  {
    label: 'day 7 on a Saturday before Whit Monday: Sat, Sun, Mon moved to Tuesday',
    signedAt: '2026-05-16T10:00:00+02:00',
    renunciation: '2026-05-26',
    withdrawal: '2026-06-01',
  },
  { label: 'day 14 on Whit Monday', signedAt: '2026-05-11T10:00:00+02:00', renunciation: '2026-05-18', withdrawal: '2026-05-26' },
  {
    label: 'day 7 on 25 Dec (Friday), day 14 on 1 Jan (Friday)',
    signedAt: '2026-12-18T10:00:00+01:00',
    renunciation: '2026-12-28',
    withdrawal: '2027-01-04',
  },
  { label: 'day 7 on 1 Jan 2027 (Friday)', signedAt: '2026-12-25T10:00:00+01:00', renunciation: '2027-01-04', withdrawal: '2027-01-08' },
  {
    label: 'day 7 on Easter Monday (29 March 2027), across the spring DST change',
    signedAt: '2027-03-22T10:00:00+01:00',
    renunciation: '2027-03-30',
    withdrawal: '2027-04-05',
  },
  {
    label: 'day 7 on 11 November (Wednesday)',
    signedAt: '2026-11-04T10:00:00+01:00',
    renunciation: '2026-11-12',
    withdrawal: '2026-11-18',
  },
  {
    label: 'spring DST change (29 March 2026) within the period, signed at 23:30',
    signedAt: '2026-03-25T23:30:00+01:00',
    renunciation: '2026-04-01',
    withdrawal: '2026-04-08',
  },
  {
    label: 'autumn DST change (25 October 2026) within the period',
    signedAt: '2026-10-20T10:00:00+02:00',
    renunciation: '2026-10-27',
    withdrawal: '2026-11-03',
  },
  {
    label: 'signed at 23:59 Paris: the day of signature is still not counted',
    signedAt: '2026-12-07T23:59:00+01:00',
    renunciation: '2026-12-14',
    withdrawal: '2026-12-21',
  },
  {
    label: 'signed at 00:01 Paris (still 7 Dec in UTC)',
    signedAt: '2026-12-08T00:01:00+01:00',
    renunciation: '2026-12-15',
    withdrawal: '2026-12-22',
  },
  {
    label: 'signed at 23:59 Paris in summer (21:59 UTC)',
    signedAt: '2026-07-06T23:59:00+02:00',
    renunciation: '2026-07-13',
    withdrawal: '2026-07-20',
  },
  {
    label: 'signed at 00:01 Paris in summer (22:01 UTC the day before)',
    signedAt: '2026-07-07T00:01:00+02:00',
    renunciation: '2026-07-15',
    withdrawal: '2026-07-21',
  },
];

describe('civil-day deadlines, a table of real dates', () => {
  it.each(TABLE)('$label', ({ signedAt, renunciation, withdrawal }) => {
    const d = contractDeadlines(signedAt);
    expect(d?.renunciation.lastDay).toBe(renunciation);
    expect(d?.withdrawal.lastDay).toBe(withdrawal);
    // 24:00 Paris on the last day is 00:00 Paris the next day, whatever the offset that day.
    expect(d?.renunciation.endsAtMs).toBe(parisDayStartMs(addCalendarDays(renunciation, 1)));
    expect(d?.withdrawal.endsAtMs).toBe(parisDayStartMs(addCalendarDays(withdrawal, 1)));
    expect(d?.paymentOpensAtMs).toBe(d?.renunciation.endsAtMs);
  });

  it('the issue’s case: signed Monday 7 Dec 2026 at 11:03, payment opens Tuesday 15 Dec at 00:00 Paris', () => {
    const signed = '2026-12-07T11:03:00+01:00';
    expect(subscriptionPaymentOpensAt(signed)).toBe(Date.parse('2026-12-15T00:00:00+01:00'));
    // Monday 14 Dec at 11:06 (the 7th day) the payment is still closed and renunciation open.
    expect(subscriptionPaymentOpen(signed, Date.parse('2026-12-14T11:06:00+01:00'))).toBe(false);
    expect(renunciationOpen(signed, Date.parse('2026-12-14T23:59:59.999+01:00'))).toBe(true);
    expect(renunciationOpen(signed, Date.parse('2026-12-15T00:00:00+01:00'))).toBe(false);
    expect(subscriptionPaymentOpen(signed, Date.parse('2026-12-15T00:00:00+01:00'))).toBe(true);
    // A withdrawal at 10:18 on the 14th day (Monday 21 Dec) is within the period; at 24:00 it is not.
    expect(withdrawalOpen(signed, Date.parse('2026-12-21T10:18:00+01:00'))).toBe(true);
    expect(withdrawalOpen(signed, Date.parse('2026-12-21T23:59:59.999+01:00'))).toBe(true);
    expect(withdrawalOpen(signed, Date.parse('2026-12-22T00:00:00+01:00'))).toBe(false);
    expect(withdrawalPeriodOver(signed, Date.parse('2026-12-22T00:00:00+01:00'))).toBe(true);
    expect(withdrawalPeriodEndsAt(signed)).toBe(Date.parse('2026-12-22T00:00:00+01:00'));
  });

  it('the DST ends are Paris midnights in UTC', () => {
    expect(contractDeadlines('2026-03-25T23:30:00+01:00')?.paymentOpensAtMs).toBe(Date.parse('2026-04-01T22:00:00Z'));
    expect(contractDeadlines('2026-10-20T10:00:00+02:00')?.paymentOpensAtMs).toBe(Date.parse('2026-10-27T23:00:00Z'));
  });

  it('has no deadline without a readable signature, and nothing is open before it', () => {
    expect(contractDeadlines(null)).toBeNull();
    expect(contractDeadlines('2026-12-07T11:03:00')).toBeNull(); // no zone: refused
    expect(subscriptionPaymentOpen(null, Date.parse('2030-01-01T00:00:00Z'))).toBe(false);
    expect(renunciationOpen(null, 0)).toBe(false);
    expect(withdrawalOpen(null, 0)).toBe(false);
    expect(withdrawalPeriodOver(null, Date.parse('2030-01-01T00:00:00Z'))).toBe(false);
    const signedMs = Date.parse('2026-12-07T11:03:00+01:00');
    expect(renunciationOpen('2026-12-07T11:03:00+01:00', signedMs - 1)).toBe(false);
    expect(withdrawalOpen('2026-12-07T11:03:00+01:00', signedMs - 1)).toBe(false);
  });
});

describe('civil-day deadlines, properties', () => {
  const from = Date.parse('2026-01-01T00:00:00+01:00');
  const to = Date.parse('2031-01-01T00:00:00+01:00');
  const signature = fc.integer({ min: from, max: to - 1 });

  /** Whole Paris days strictly between the signature's day and the end (the last day included). */
  const wholeDays = (signedMs: number, endsAtMs: number) =>
    Math.round((parisDayStartMs(parisDayOf(endsAtMs)) - parisDayStartMs(parisDayOf(signedMs))) / DAY_MS) - 1;

  it('payment never opens before the end of the 7th whole Paris day after signature', () => {
    fc.assert(
      fc.property(signature, (s) => {
        const opens = deadlinesOfSignature(s).paymentOpensAtMs;
        expect(opens).toBeGreaterThanOrEqual(parisDayStartMs(addCalendarDays(parisDayOf(s), NO_PAYMENT_PERIOD_DAYS + 1)));
        expect(opens - s).toBeGreaterThan(NO_PAYMENT_PERIOD_DAYS * DAY_MS - HOUR_MS); // 7 days, less at most the hour of a DST change
        expect(subscriptionPaymentOpen(new Date(s).toISOString(), opens - 1)).toBe(false);
        expect(subscriptionPaymentOpen(new Date(s).toISOString(), opens)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('the periods are never shorter than 7 and 14 whole civil days, and end at 24:00 Paris on a working day', () => {
    fc.assert(
      fc.property(signature, (s) => {
        const d = deadlinesOfSignature(s);
        for (const [period, days] of [
          [d.renunciation, NO_PAYMENT_PERIOD_DAYS],
          [d.withdrawal, WITHDRAWAL_PERIOD_DAYS],
        ] as const) {
          expect(wholeDays(s, period.endsAtMs)).toBeGreaterThanOrEqual(days);
          expect(parisDayStartMs(parisDayOf(period.endsAtMs))).toBe(period.endsAtMs); // a Paris midnight
          expect(parisDayOf(period.endsAtMs - 1)).toBe(period.lastDay);
          expect(isWorkingDay(period.lastDay)).toBe(true);
          // Moved no further than needed: every day from the N-th to the last, the last excepted, is not worked.
          for (let day = addCalendarDays(parisDayOf(s), days); day < period.lastDay; day = addCalendarDays(day, 1))
            expect(isWorkingDay(day)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('renunciation and withdrawal are open exactly from the signature to the end of their period', () => {
    fc.assert(
      fc.property(signature, fc.integer({ min: -DAY_MS, max: 25 * DAY_MS }), (s, offset) => {
        const iso = new Date(s).toISOString();
        const now = s + offset;
        const d = deadlinesOfSignature(s);
        expect(renunciationOpen(iso, now)).toBe(now >= s && now < d.renunciation.endsAtMs);
        expect(withdrawalOpen(iso, now)).toBe(now >= s && now < d.withdrawal.endsAtMs);
        expect(withdrawalPeriodOver(iso, now)).toBe(now >= d.withdrawal.endsAtMs);
      }),
      { numRuns: 300 },
    );
  });

  it('a period of N days from any day agrees with civilPeriod', () => {
    expect(civilPeriod(Date.parse('2026-12-07T11:03:00+01:00'), 1)).toEqual({
      lastDay: '2026-12-08',
      endsAtMs: Date.parse('2026-12-09T00:00:00+01:00'),
    });
  });
});
