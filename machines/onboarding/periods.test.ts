import { describe, expect, it } from 'vitest';
import {
  accountUsable,
  CONTRACT_MAX_MONTHS,
  mustWaitFourteenDays,
  signatureDateIsCurrent,
  subscriptionComplete,
  withdrawalWaitOver,
} from '#machines/onboarding/periods.ts';
import { NO_PAYMENT_PERIOD_DAYS, WITHDRAWAL_PERIOD_DAYS } from '#machines/onboarding/legal-deadlines.ts';

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

describe('the wait before the matchmaking meeting (L221-18, L221-25)', () => {
  // Signed Monday 7 Dec 2026: the withdrawal period's last day is Monday 21 Dec (civil days, decision 165).
  const SIGNED_MONDAY = '2026-12-07T11:03:00+01:00';
  const lastDayEvening = Date.parse('2026-12-21T23:59:00+01:00');
  const over = Date.parse('2026-12-22T00:00:00+01:00');
  it.each([
    { renounced: null, date: SIGNED_MONDAY, now: lastDayEvening, wait: true },
    { renounced: false, date: SIGNED_MONDAY, now: lastDayEvening, wait: true },
    { renounced: false, date: SIGNED_MONDAY, now: over, wait: false },
    { renounced: true, date: SIGNED_MONDAY, now: Date.parse(SIGNED_MONDAY), wait: false },
    { renounced: true, date: null, now: over, wait: false },
    { renounced: false, date: null, now: over, wait: true },
  ])('renounced=$renounced, at $now → must wait $wait', ({ renounced, date, now, wait }) => {
    const record = { renouncedWithdrawalRight: renounced, subscriptionDate: date };
    expect(mustWaitFourteenDays(record, now)).toBe(wait);
    expect(withdrawalWaitOver(record, now)).toBe(!wait);
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
