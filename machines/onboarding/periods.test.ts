import { describe, expect, it } from 'vitest';
import { DAY_MS } from '#machines/onboarding/instant.ts';
import {
  accountUsable,
  CONTRACT_MAX_MONTHS,
  mustWaitFourteenDays,
  NO_PAYMENT_PERIOD_DAYS,
  signatureDateIsCurrent,
  subscriptionComplete,
  subscriptionPaymentOpen,
  subscriptionPaymentOpensAt,
  WITHDRAWAL_PERIOD_DAYS,
  wholeDaysSince,
  withdrawalPeriodEndsAt,
  withdrawalPeriodOver,
  withdrawalWaitOver,
} from '#machines/onboarding/periods.ts';

const SIGNED = '2025-03-01T10:00:00.000Z';
const signedMs = Date.parse(SIGNED);
const MINUTE_MS = 60_000;

describe('legal constants', () => {
  it('are the periods of the Code de la consommation', () => {
    expect(WITHDRAWAL_PERIOD_DAYS).toBe(14);
    expect(NO_PAYMENT_PERIOD_DAYS).toBe(7);
    expect(CONTRACT_MAX_MONTHS).toBe(12);
  });
});

describe('wholeDaysSince', () => {
  it.each([
    [null, signedMs, null],
    ['pas une date', signedMs, null],
    ['2025-03-01T10:00:00', signedMs, null], // no time zone: ambiguous, refused
    [SIGNED, signedMs, 0],
    [SIGNED, signedMs + DAY_MS - 1, 0],
    [SIGNED, signedMs + DAY_MS, 1],
    [SIGNED, signedMs + 14 * DAY_MS - 1, 13],
    [SIGNED, signedMs + 14 * DAY_MS, 14],
    [SIGNED, signedMs - 1, -1],
    ['2025-03-01T11:00:00+01:00', signedMs + 14 * DAY_MS, 14], // same instant written with an offset
  ])('since %s at %i → %s', (date, now, days) => {
    expect(wholeDaysSince(date, now)).toBe(days);
  });

  it('does not depend on daylight saving changes (24-hour days)', () => {
    // 30 March 2025 is the switch to summer time in France.
    expect(wholeDaysSince('2025-03-29T12:00:00+01:00', Date.parse('2025-03-31T13:00:00+02:00'))).toBe(2);
  });
});

describe('14-day withdrawal period (L221-18)', () => {
  it.each([
    { label: 'no subscription date', date: null, after: 100 * DAY_MS, over: false },
    { label: 'day 0', date: SIGNED, after: 0, over: false },
    { label: 'day 13', date: SIGNED, after: 13 * DAY_MS, over: false },
    { label: '1 ms before day 14', date: SIGNED, after: 14 * DAY_MS - 1, over: false },
    { label: 'day 14', date: SIGNED, after: 14 * DAY_MS, over: true },
    { label: 'day 30', date: SIGNED, after: 30 * DAY_MS, over: true },
  ])('$label → over $over', ({ date, after, over }) => {
    expect(withdrawalPeriodOver(date, signedMs + after)).toBe(over);
  });

  it('ends 14 days after the subscription date; no end while there is none', () => {
    expect(withdrawalPeriodEndsAt(SIGNED)).toBe(signedMs + 14 * DAY_MS);
    expect(withdrawalPeriodEndsAt(null)).toBeNull();
  });

  it.each([
    { renounced: null, date: SIGNED, day: 13, wait: true },
    { renounced: false, date: SIGNED, day: 13, wait: true },
    { renounced: false, date: SIGNED, day: 14, wait: false },
    { renounced: true, date: SIGNED, day: 0, wait: false },
    { renounced: true, date: null, day: 0, wait: false },
    { renounced: false, date: null, day: 0, wait: true },
  ])('renounced=$renounced, day $day → must wait $wait', ({ renounced, date, day, wait }) => {
    const record = { renouncedWithdrawalRight: renounced, subscriptionDate: date };
    expect(mustWaitFourteenDays(record, signedMs + day * DAY_MS)).toBe(wait);
    expect(withdrawalWaitOver(record, signedMs + day * DAY_MS)).toBe(!wait);
  });
});

describe('7-day no-payment period (L224-91)', () => {
  it.each([
    { date: null, after: 30 * DAY_MS, open: false },
    { date: SIGNED, after: 0, open: false },
    { date: SIGNED, after: 7 * DAY_MS - 1, open: false },
    { date: SIGNED, after: 7 * DAY_MS, open: true },
    { date: SIGNED, after: 8 * DAY_MS, open: true },
  ])('signed $date, +$after ms → open $open', ({ date, after, open }) => {
    expect(subscriptionPaymentOpen(date, signedMs + after)).toBe(open);
  });

  it('opens 7 days after signature; not before signature', () => {
    expect(subscriptionPaymentOpensAt(SIGNED)).toBe(signedMs + 7 * DAY_MS);
    expect(subscriptionPaymentOpensAt(null)).toBeNull();
  });
});

describe('signature date', () => {
  it.each([
    [0, true],
    [-15 * MINUTE_MS, true],
    [15 * MINUTE_MS, true],
    [-15 * MINUTE_MS - 1, false],
    [15 * MINUTE_MS + 1, false],
  ])('signature %i ms from now → current %s', (offset, current) => {
    expect(signatureDateIsCurrent(new Date(signedMs + offset).toISOString(), signedMs)).toBe(current);
  });

  it('refuses a date without time zone', () => {
    expect(signatureDateIsCurrent('2025-03-01T10:00:00', signedMs)).toBe(false);
  });
});

describe('account usable and subscription complete (spec §4)', () => {
  it.each([
    [{ isInit: true, user: { id: 'u1' } }, true],
    [{ isInit: false, user: { id: 'u1' } }, false],
    [{ isInit: true, user: { id: '' } }, false],
    [{ isInit: true, user: { id: null } }, false],
    [{ isInit: true, user: {} }, false],
    [{ isInit: true, user: null }, false],
  ])('%j → usable %s', (account, usable) => {
    expect(accountUsable(account)).toBe(usable);
  });

  const complete = { formPersonnalInfoCompleted: true, subscriptionDate: SIGNED, subscriptionFeesPaid: true };
  it.each([
    ['everything', { isInit: true, user: { id: 'u1' } }, complete, true],
    ['account not usable', { isInit: false, user: { id: 'u1' } }, complete, false],
    ['personal info missing', { isInit: true, user: { id: 'u1' } }, { ...complete, formPersonnalInfoCompleted: false }, false],
    ['no subscription date', { isInit: true, user: { id: 'u1' } }, { ...complete, subscriptionDate: null }, false],
    ['subscription unpaid', { isInit: true, user: { id: 'u1' } }, { ...complete, subscriptionFeesPaid: false }, false],
  ])('%s → complete %s', (_label, account, record, expected) => {
    expect(subscriptionComplete(account, record)).toBe(expected);
  });
});
