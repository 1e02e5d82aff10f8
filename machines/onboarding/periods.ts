import { DAY_MS, instantMs } from '#machines/onboarding/instant.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';

/**
 * Legal periods and subscription progress rules. Time is always an input (`now`,
 * ms since the epoch): nothing here reads the clock.
 *
 * Days are whole periods of 24 hours from the instant of the subscription date,
 * which gives the same answer in every time zone (browser and server alike).
 */

/** Withdrawal period of a distance contract for services: Code de la consommation L221-18. */
export const WITHDRAWAL_PERIOD_DAYS = 14;
/** No payment of any kind before 7 days after signature of a matrimonial agency contract: L224-91. */
export const NO_PAYMENT_PERIOD_DAYS = 7;
/** A matrimonial agency contract lasts at most one year, without tacit renewal: L224-90. */
export const CONTRACT_MAX_MONTHS = 12;
/**
 * The signature date sent with `sub_date` must be the current time, give or take
 * this clock difference between the member's device and the server. A signature
 * cannot be backdated: that would shorten the 7-day and 14-day periods.
 */
export const SIGNATURE_CLOCK_SKEW_MS = 15 * 60 * 1000;

/** Whole days elapsed since `date`; null while the date is empty (or unreadable). */
export function wholeDaysSince(date: string | null, now: number): number | null {
  if (date === null) return null;
  const start = instantMs(date);
  if (!Number.isFinite(start)) return null;
  return Math.floor((now - start) / DAY_MS);
}

function addDays(date: string | null, days: number): number | null {
  if (date === null) return null;
  const start = instantMs(date);
  return Number.isFinite(start) ? start + days * DAY_MS : null;
}

/** The 14-day withdrawal period is over: at least 14 whole days since the subscription date. */
export function withdrawalPeriodOver(subscriptionDate: string | null, now: number): boolean {
  const days = wholeDaysSince(subscriptionDate, now);
  return days !== null && days >= WITHDRAWAL_PERIOD_DAYS;
}

/** Instant (ms) the withdrawal period ends; null while there is no subscription date. */
export function withdrawalPeriodEndsAt(subscriptionDate: string | null): number | null {
  return addDays(subscriptionDate, WITHDRAWAL_PERIOD_DAYS);
}

/** Instant (ms) the subscription payment opens (7 days after signature); null before signature. */
export function subscriptionPaymentOpensAt(subscriptionDate: string | null): number | null {
  return addDays(subscriptionDate, NO_PAYMENT_PERIOD_DAYS);
}

/** The subscription may be paid: the contract is signed and 7 whole days have passed. */
export function subscriptionPaymentOpen(subscriptionDate: string | null, now: number): boolean {
  const days = wholeDaysSince(subscriptionDate, now);
  return days !== null && days >= NO_PAYMENT_PERIOD_DAYS;
}

/**
 * Whether the member must still wait for the end of the 14-day period. Renouncing
 * (the member's express request to start early, L221-25) skips the wait. The
 * 7-day no-payment period is never skipped.
 */
export function mustWaitFourteenDays(
  record: Pick<OnboardingRecord, 'renouncedWithdrawalRight' | 'subscriptionDate'>,
  now: number,
): boolean {
  return record.renouncedWithdrawalRight !== true && !withdrawalPeriodOver(record.subscriptionDate, now);
}

/** The wait before the matchmaking meeting is over: renounced, or 14 days passed. */
export function withdrawalWaitOver(record: Pick<OnboardingRecord, 'renouncedWithdrawalRight' | 'subscriptionDate'>, now: number): boolean {
  return !mustWaitFourteenDays(record, now);
}

/** The signature instant is the current time, within SIGNATURE_CLOCK_SKEW_MS. */
export function signatureDateIsCurrent(subDate: string, now: number): boolean {
  const signedAt = instantMs(subDate);
  return Number.isFinite(signedAt) && Math.abs(signedAt - now) <= SIGNATURE_CLOCK_SKEW_MS;
}

// ---------------------------------------------------------------------------
// Subscription progress (spec §4)

/** The client's view of the account: settings loaded (`isInit`) and the user they returned. */
export interface AccountState {
  isInit: boolean;
  user: { id?: string | null } | null | undefined;
}

/** The account is usable once initialised with a user that has an id. */
export function accountUsable(account: AccountState): boolean {
  return account.isInit && typeof account.user?.id === 'string' && account.user.id.length > 0;
}

/** Usable, personal information completed, subscription date set and subscription fees paid. */
export function subscriptionComplete(
  account: AccountState,
  record: Pick<OnboardingRecord, 'formPersonnalInfoCompleted' | 'subscriptionDate' | 'subscriptionFeesPaid'>,
): boolean {
  return accountUsable(account) && record.formPersonnalInfoCompleted && record.subscriptionDate !== null && record.subscriptionFeesPaid;
}
