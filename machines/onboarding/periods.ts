import { DAY_MS, instantMs } from '#machines/onboarding/instant.ts';
import { withdrawalPeriodOver } from '#machines/onboarding/legal-deadlines.ts';
import { planById } from '#machines/onboarding/plans.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';
import { parisFields, parisOffsetMs } from '#machines/paris-time.ts';

/**
 * Subscription progress rules, the term and the refunds' arithmetic. Time is always an input
 * (`now`, ms since the epoch): nothing here reads the clock. The 7-day and 14-day periods (when
 * they end, whether they are open) are civil days: machines/onboarding/legal-deadlines.ts
 * (decision 165), the one place that computes them.
 */

/** A matrimonial agency contract lasts at most one year, without tacit renewal: L224-90. */
export const CONTRACT_MAX_MONTHS = 12;
/**
 * The signature date sent with `sub_date` must be the current time, give or take
 * this clock difference between the member's device and the server. A signature
 * cannot be backdated: that would shorten the 7-day and 14-day periods.
 */
export const SIGNATURE_CLOCK_SKEW_MS = 15 * 60 * 1000;

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

// ---------------------------------------------------------------------------
// Rights and term (decision 118)

/** A refund owed after a withdrawal is made within 14 days (L221-24). */
export const REFUND_DEADLINE_DAYS = 14;

/**
 * The instant a contract signed at `subscriptionDate` for `months` months ends (L224-90): midnight,
 * Paris time, at the start of the same day number `months` months later, i.e. the end of the last
 * day the contract prints (« prend fin le … », bff/contract/contract-text.ts `contractEndDate`).
 * The one source of the term's end: the chart, the mails, the matching and retention read it.
 */
export function contractEndsAtMs(subscriptionDate: string | null, months: number): number | null {
  if (subscriptionDate === null) return null;
  const start = instantMs(subscriptionDate);
  if (!Number.isFinite(start)) return null;
  const { year, month, day } = parisFields(start);
  const midnightUtc = Date.UTC(year, month - 1 + months, day);
  return midnightUtc - parisOffsetMs(midnightUtc - parisOffsetMs(midnightUtc));
}

/** When the member's contract ends: its signature plus the chosen plan's 6 or 12 months; null before signature. */
export function termEndsAtMs(record: Pick<OnboardingRecord, 'subscriptionDate' | 'selectedPlanId'>): number | null {
  if (record.selectedPlanId === null) return null;
  return contractEndsAtMs(record.subscriptionDate, planById(record.selectedPlanId).durationMonths);
}

/** The contract's term is over (L224-90: a fixed term, no tacit renewal). */
export function termOver(record: Pick<OnboardingRecord, 'subscriptionDate' | 'selectedPlanId'>, now: number): boolean {
  const end = termEndsAtMs(record);
  return end !== null && now >= end;
}

/**
 * What is refunded after a withdrawal (L221-24, L221-25): everything paid, unless the member
 * expressly asked the services to start before the 14 days were over; then the price of the
 * days elapsed since signature, pro rata of the whole term (file fee and plan), is kept.
 */
export function withdrawalRefundCents(input: {
  paidCents: number;
  contractPriceCents: number;
  earlyStart: boolean;
  signedAtMs: number;
  endsAtMs: number;
  now: number;
}): { refundCents: number; keptCents: number; elapsedDays: number; termDays: number } {
  const termDays = Math.max(1, Math.round((input.endsAtMs - input.signedAtMs) / DAY_MS));
  const elapsedDays = Math.max(0, Math.floor((input.now - input.signedAtMs) / DAY_MS));
  const owed = input.earlyStart ? Math.round((input.contractPriceCents * Math.min(elapsedDays, termDays)) / termDays) : 0;
  const keptCents = Math.min(input.paidCents, owed);
  return { refundCents: input.paidCents - keptCents, keptCents, elapsedDays, termDays };
}

// ---------------------------------------------------------------------------
// Termination for a legitimate reason (R224-2, decision 119)

/** The refund owed after a termination for a legitimate reason is made within two months of the request. */
export const TERMINATION_REFUND_MONTHS = 2;

/**
 * The deadline of the refund (and of the staff's decision) after a termination request at
 * `requestedAtMs`: the same instant two calendar months later (Paris), clamped to the month's last
 * day (31 December → 28/29 February).
 */
export function terminationRefundDueByMs(requestedAtMs: number): number {
  const f = parisFields(requestedAtMs);
  const targetMonth = f.month - 1 + TERMINATION_REFUND_MONTHS;
  const lastDay = new Date(Date.UTC(f.year, targetMonth + 1, 0)).getUTCDate();
  const wallClock = Date.UTC(f.year, targetMonth, Math.min(f.day, lastDay), f.hour, f.minute, f.second, requestedAtMs % 1000);
  return wallClock - parisOffsetMs(wallClock - parisOffsetMs(wallClock));
}

/**
 * What is refunded after a termination for a legitimate reason (R224-2): the price of the whole
 * contract (file fee as charged and the plan's total) is reduced pro rata of the whole days elapsed
 * from the signature to the request; what was paid beyond that price is refunded.
 */
export function terminationRefundCents(input: {
  paidCents: number;
  contractPriceCents: number;
  signedAtMs: number;
  endsAtMs: number;
  requestedAtMs: number;
}): { refundCents: number; keptCents: number; elapsedDays: number; termDays: number } {
  return withdrawalRefundCents({ ...input, earlyStart: true, now: input.requestedAtMs });
}
