/**
 * Dates and times as French is written. `Intl` writes « 1 décembre 2026 à 09:05 »; French writes
 * the first day of a month as an ordinal, « 1er décembre », « mardi 1er décembre 2026 », « du 1er
 * au 7 décembre » (the other days stay cardinal), and a time of day « 9 h 05 », its spaces
 * non-breaking so that « h » never ends or starts a line on a phone. A date in figures
 * (« 01/12/2026 14:30 », for a CSV that Excel reads, or with seconds) is left as `Intl` writes it.
 * Every date and time the product shows goes through here, in the SPA, the server's mails and
 * PDFs alike; `tests/unit/french-writing.test.ts` refuses a French `Intl.DateTimeFormat` made
 * anywhere else.
 */
import { lazy } from '#machines/lazy.ts';

const isDigits = (value: string) => /^\d+$/.test(value);

/** The formatter is built at its first use (`lazy`): modules make theirs at load, most are never used on a given page. */
export function frenchDateFormat(options: Intl.DateTimeFormatOptions): { format(date: Date | number): string } {
  const intl = lazy(() => new Intl.DateTimeFormat('fr-FR', options));
  return {
    format(date) {
      const parts = intl().formatToParts(date);
      if (parts.some((p) => (p.type === 'month' && isDigits(p.value)) || p.type === 'second')) return intl().format(date);
      return parts
        .map((p, i) => {
          if (p.type === 'day' && p.value === '1') return '1er';
          if (p.type === 'hour') return String(Number(p.value));
          if (p.type === 'literal' && parts[i - 1]?.type === 'hour' && parts[i + 1]?.type === 'minute') return '\u00a0h\u00a0';
          return p.value;
        })
        .join('');
    },
  };
}

/** A time of day alone, « 14 h 05 ». */
export const frenchTimeFormat = (timeZone: string) => frenchDateFormat({ timeZone, timeStyle: 'short' });

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * A Paris date-only formatter (`frenchDateFormat` with `dateStyle` and `timeZone: 'Europe/Paris'`,
 * no time) for many instants, as an export writes them: the same text, asked of `format` once per
 * day met instead of once per instant (the days are kept, at most `keep` of them). Within a UTC day,
 * Paris (UTC+1 or +2, changed at 01:00 UTC) shows that day until midnight Paris time, `24 h − offset`
 * UTC, read at 22:00 UTC, and the next day after; any other offset (never in Paris) formats the
 * instant itself. `machines/french/dates.test.ts` compares it with `format` around every change of
 * time from 2000 to 2040 and at random instants.
 */
export function parisDayFormatter(
  format: (date: Date | number) => string,
  offsetAt: (ms: number) => number,
  keep = 50_000,
): (ms: number) => string {
  const midnights = new Map<number, number | null>();
  const texts = new Map<number, string>();
  const text = (day: number) => {
    let known = texts.get(day);
    if (known === undefined) {
      if (texts.size >= keep) texts.clear();
      known = format(day * DAY_MS + 12 * HOUR_MS);
      texts.set(day, known);
    }
    return known;
  };
  return (ms) => {
    const day = Math.floor(ms / DAY_MS);
    let midnight = midnights.get(day);
    if (midnight === undefined) {
      if (midnights.size >= keep) midnights.clear();
      const offset = offsetAt(day * DAY_MS + 22 * HOUR_MS);
      midnight = offset === HOUR_MS || offset === 2 * HOUR_MS ? (day + 1) * DAY_MS - offset : null;
      midnights.set(day, midnight);
    }
    if (midnight === null) return format(ms);
    return text(ms < midnight ? day : day + 1);
  };
}
