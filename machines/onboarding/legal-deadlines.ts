import { instantMs } from '#machines/onboarding/instant.ts';
import { NO_PAYMENT_PERIOD_DAYS, WITHDRAWAL_PERIOD_DAYS } from '#machines/onboarding/legal-periods.ts';
import { parisDayOf, parisDayStartMs } from '#machines/paris-time.ts';

/**
 * Every legal deadline of the contract, in civil days, Paris time (decision 165, decisions §4
 * « Deadlines are civil days »). The one place that says when the 7-day renunciation period and the
 * 14-day withdrawal period end and when payment opens: the chart's guards, the server's checks,
 * the screens, the mails, the contract's text and the jobs all call it.
 *
 * - The day of the event (the signature) is not counted: day 1 is the next Paris day.
 * - A period of N days ends at 24:00 Paris on its N-th day, i.e. at 00:00 Paris the day after.
 * - When that day is a Saturday, a Sunday or a French public holiday, the period ends at 24:00 on
 *   the next working day (Regulation (EEC, Euratom) 1182/71 art. 3, which L221-19 applies to the
 *   withdrawal period; applied to the renunciation period of L224-91 too, the reading more
 *   favourable to the member).
 * - Payment opens at 00:00 Paris the day after the renunciation period ends: the instant it ends.
 *
 * Pure: time is an input, nothing here reads the clock. Days are `YYYY-MM-DD` strings of the Paris
 * calendar; instants are ms since the epoch. Easter is computed (see `easterSunday`), so the
 * answer is the same in every browser's time zone and on the server.
 */

export { NO_PAYMENT_PERIOD_DAYS, WITHDRAWAL_PERIOD_DAYS };

/** A period counted in civil days: its last day (after any move to a working day) and the instant it ends. */
export interface CivilPeriod {
  /** The last day of the period, inclusive, Paris calendar (`YYYY-MM-DD`). */
  lastDay: string;
  /** The instant the period ends: 24:00 Paris on `lastDay` (= 00:00 Paris the next day), exclusive. */
  endsAtMs: number;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function partsOf(day: string): [number, number, number] {
  const m = DAY.exec(day);
  if (!m) throw new RangeError(`Not a calendar day: ${day}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function dayOfUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `day` plus `n` calendar days (no clock involved: the calendar's arithmetic, in UTC). */
export function addCalendarDays(day: string, n: number): string {
  const [y, m, d] = partsOf(day);
  return dayOfUtc(Date.UTC(y, m - 1, d + n));
}

/** Day of the week, 0 = Sunday … 6 = Saturday. */
function weekdayOf(day: string): number {
  const [y, m, d] = partsOf(day);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/**
 * Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm, Meeus/Jones/Butcher), on
 * integers only. Computed here rather than taken from `@socialgouv/jours-feries`, whose dates are
 * local `Date`s shifted by 24-hour steps: in a browser in Sydney or Santiago it puts Ascension and
 * Whit Monday a day early (decision 165).
 */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return dayOfUtc(Date.UTC(year, month - 1, day));
}

/**
 * The eleven public holidays of metropolitan France (Code du travail L3133-1), by date: 1 January,
 * Easter Monday, 1 May, 8 May, Ascension, Whit Monday, 14 July, 15 August, 1 November,
 * 11 November, 25 December. Whit Monday is kept although it may be worked (« journée de
 * solidarité »): counting it as a holiday only lengthens the member's periods.
 */
export function frenchPublicHolidays(year: number): string[] {
  const easter = easterSunday(year);
  const fixed = ['01-01', '05-01', '05-08', '07-14', '08-15', '11-01', '11-11', '12-25'].map(
    (md) => `${String(year).padStart(4, '0')}-${md}`,
  );
  return [...fixed, addCalendarDays(easter, 1), addCalendarDays(easter, 39), addCalendarDays(easter, 50)].sort();
}

export function isFrenchPublicHoliday(day: string): boolean {
  return frenchPublicHolidays(partsOf(day)[0]).includes(day);
}

/** A working day in the sense of Regulation 1182/71: neither a Saturday, a Sunday nor a public holiday. */
export function isWorkingDay(day: string): boolean {
  const weekday = weekdayOf(day);
  return weekday !== 0 && weekday !== 6 && !isFrenchPublicHoliday(day);
}

/** The period of `days` civil days that follows the event at `eventMs` (the event's Paris day not counted). */
export function civilPeriod(eventMs: number, days: number): CivilPeriod {
  let lastDay = addCalendarDays(parisDayOf(eventMs), days);
  while (!isWorkingDay(lastDay)) lastDay = addCalendarDays(lastDay, 1);
  return { lastDay, endsAtMs: parisDayStartMs(addCalendarDays(lastDay, 1)) };
}

/** The deadlines of a contract signed at `signedAtMs`. */
export interface ContractDeadlines {
  signedAtMs: number;
  /** The Paris day of the signature (`YYYY-MM-DD`): day 0, not counted. */
  signedOnDay: string;
  /** The 7-day renunciation period (L224-91); no payment of any kind before its end. */
  renunciation: CivilPeriod;
  /** The 14-day withdrawal period (L221-18, L221-19). */
  withdrawal: CivilPeriod;
  /** Payment opens at 00:00 Paris the day after the renunciation period: the instant it ends. */
  paymentOpensAtMs: number;
}

export function deadlinesOfSignature(signedAtMs: number): ContractDeadlines {
  const renunciation = civilPeriod(signedAtMs, NO_PAYMENT_PERIOD_DAYS);
  return {
    signedAtMs,
    signedOnDay: parisDayOf(signedAtMs),
    renunciation,
    withdrawal: civilPeriod(signedAtMs, WITHDRAWAL_PERIOD_DAYS),
    paymentOpensAtMs: renunciation.endsAtMs,
  };
}

/** The deadlines of the record's subscription date (`sub_date`); null while unsigned (or unreadable). */
export function contractDeadlines(subscriptionDate: string | null): ContractDeadlines | null {
  if (subscriptionDate === null) return null;
  const signedAtMs = instantMs(subscriptionDate);
  return Number.isFinite(signedAtMs) ? deadlinesOfSignature(signedAtMs) : null;
}

// ---------------------------------------------------------------------------
// The questions the guards, the server and the screens ask

/** Instant (ms) the subscription payment opens (end of the renunciation period); null before signature. */
export function subscriptionPaymentOpensAt(subscriptionDate: string | null): number | null {
  return contractDeadlines(subscriptionDate)?.paymentOpensAtMs ?? null;
}

/** Instant (ms) the withdrawal period ends; null while there is no subscription date. */
export function withdrawalPeriodEndsAt(subscriptionDate: string | null): number | null {
  return contractDeadlines(subscriptionDate)?.withdrawal.endsAtMs ?? null;
}

/** The subscription may be paid: the contract is signed and the renunciation period is over (L224-91). */
export function subscriptionPaymentOpen(subscriptionDate: string | null, now: number): boolean {
  const deadlines = contractDeadlines(subscriptionDate);
  return deadlines !== null && now >= deadlines.paymentOpensAtMs;
}

/** The 14-day withdrawal period is over (L221-18, L221-19). */
export function withdrawalPeriodOver(subscriptionDate: string | null, now: number): boolean {
  const deadlines = contractDeadlines(subscriptionDate);
  return deadlines !== null && now >= deadlines.withdrawal.endsAtMs;
}

/** Renunciation (L224-91) is open: the contract is signed and its renunciation period runs. */
export function renunciationOpen(subscriptionDate: string | null, now: number): boolean {
  const deadlines = contractDeadlines(subscriptionDate);
  return deadlines !== null && now >= deadlines.signedAtMs && now < deadlines.renunciation.endsAtMs;
}

/** Withdrawal (L221-18) is open: the contract is signed and its withdrawal period runs. */
export function withdrawalOpen(subscriptionDate: string | null, now: number): boolean {
  const deadlines = contractDeadlines(subscriptionDate);
  return deadlines !== null && now >= deadlines.signedAtMs && now < deadlines.withdrawal.endsAtMs;
}
