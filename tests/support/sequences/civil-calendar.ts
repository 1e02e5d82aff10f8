/**
 * The contract-sequence test's own calendar (issue 59, point 9): the legal periods counted in
 * Paris civil days, written again here from the rule alone — the event's day not counted, a period
 * of N days ends at 24:00 Paris on its N-th day, a last day that is a Saturday, a Sunday or a
 * public holiday moves to the end of the next working day (decisions §4, decision 165) — with the
 * public holidays of metropolitan France written out by hand, not computed. The product's
 * `machines/onboarding/legal-deadlines.ts` is never read: a mistake there (hours instead of days,
 * a holiday forgotten, the DST change) shows up as a disagreement with this table.
 */

/**
 * The eleven public holidays of metropolitan France (Code du travail L3133-1), 2030–2036: the years
 * the sequences run in (see `sequence-world.ts` for why). Easter Sunday falls on 21 April 2030, 13 April 2031,
 * 28 March 2032 (the day the clocks change), 17 April 2033, 9 April 2034, 25 March 2035 (the day
 * the clocks change) and 13 April 2036.
 */
const HOLIDAYS: Readonly<Record<number, readonly string[]>> = {
  2030: ['01-01', '04-22', '05-01', '05-08', '05-30', '06-10', '07-14', '08-15', '11-01', '11-11', '12-25'],
  2031: ['01-01', '04-14', '05-01', '05-08', '05-22', '06-02', '07-14', '08-15', '11-01', '11-11', '12-25'],
  2032: ['01-01', '03-29', '05-01', '05-06', '05-08', '05-17', '07-14', '08-15', '11-01', '11-11', '12-25'],
  2033: ['01-01', '04-18', '05-01', '05-08', '05-26', '06-06', '07-14', '08-15', '11-01', '11-11', '12-25'],
  2034: ['01-01', '04-10', '05-01', '05-08', '05-18', '05-29', '07-14', '08-15', '11-01', '11-11', '12-25'],
  2035: ['01-01', '03-26', '05-01', '05-03', '05-08', '05-14', '07-14', '08-15', '11-01', '11-11', '12-25'],
  2036: ['01-01', '04-14', '05-01', '05-08', '05-22', '06-02', '07-14', '08-15', '11-01', '11-11', '12-25'],
};

/** The days on which the clocks change in Paris (last Sunday of March and of October), 2030–2036. */
export const DST_CHANGES: readonly string[] = [
  '2030-03-31',
  '2030-10-27',
  '2031-03-30',
  '2031-10-26',
  '2032-03-28',
  '2032-10-31',
  '2033-03-27',
  '2033-10-30',
  '2034-03-26',
  '2034-10-29',
  '2035-03-25',
  '2035-10-28',
  '2036-03-30',
  '2036-10-26',
];

/** Every public holiday of the table, `YYYY-MM-DD`. */
export const PUBLIC_HOLIDAYS: readonly string[] = Object.entries(HOLIDAYS).flatMap(([year, days]) => days.map((d) => `${year}-${d}`));
const holidaySet = new Set(PUBLIC_HOLIDAYS);

const parisDayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' });
const parisHourFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Paris',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** `YYYY-MM-DD` of instant `ms` in Paris. */
export function parisDay(ms: number): string {
  return parisDayFormat.format(new Date(ms));
}

/** `HH:MM` of instant `ms` in Paris. */
export function parisTime(ms: number): string {
  return parisHourFormat.format(new Date(ms));
}

/** The calendar day `n` days after `day`. */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

function yearOf(day: string): number {
  const year = Number(day.slice(0, 4));
  if (!HOLIDAYS[year]) throw new Error(`civil-calendar: no public holidays written for ${year}; add them to the table`);
  return year;
}

/** A working day: not a Saturday, not a Sunday, not a public holiday. */
export function isWorkingDay(day: string): boolean {
  yearOf(day);
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !holidaySet.has(day);
}

/** The instant 00:00 Paris begins on `day` (found by trying the two offsets Paris uses). */
export function parisMidnight(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  for (const offsetHours of [1, 2]) {
    const ms = Date.UTC(y, m - 1, d) - offsetHours * 3_600_000;
    if (parisDay(ms) === day && parisTime(ms) === '00:00') return ms;
  }
  throw new Error(`civil-calendar: no Paris midnight on ${day}`);
}

/** The instant `HH:MM` (Paris wall clock, counted from midnight) on `day`. */
export function parisInstant(day: string, hour: number, minute: number): number {
  return parisMidnight(day) + (hour * 60 + minute) * 60_000;
}

/**
 * A period of `days` civil days from the event at `eventMs`: its last day (moved to the next working
 * day when it is not one) and the instant it ends, 00:00 Paris the day after (exclusive).
 */
export function civilPeriod(eventMs: number, days: number): { lastDay: string; endsAtMs: number } {
  let last = addDays(parisDay(eventMs), days);
  while (!isWorkingDay(last)) last = addDays(last, 1);
  return { lastDay: last, endsAtMs: parisMidnight(addDays(last, 1)) };
}

/** The two periods of a contract signed at `signedMs`: renunciation (7 days, L224-91) and withdrawal (14 days, L221-18). */
export function legalPeriods(signedMs: number) {
  const renunciation = civilPeriod(signedMs, 7);
  const withdrawal = civilPeriod(signedMs, 14);
  return {
    renunciation,
    withdrawal,
    /** No money before this instant (L224-91): the renunciation period is over. */
    paymentOpensAtMs: renunciation.endsAtMs,
  };
}
