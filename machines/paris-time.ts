import { lazy } from '#machines/lazy.ts';

/**
 * The agency's wall clock (Europe/Paris) from an instant, and back: the one place that asks `Intl`
 * for Paris's fields, for the onboarding's periods, the instalments, the agenda and the billing
 * filters alike.
 */

const parisParts = lazy(
  () =>
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'Europe/Paris',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }),
);

/** The date and time Paris's clocks show at instant `ms`. */
export function parisFields(ms: number): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const parts: Record<string, number> = {};
  for (const p of parisParts().formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** Paris's offset from UTC (ms) at instant `ms`: 3 600 000 in winter, 7 200 000 in summer. */
export function parisOffsetMs(ms: number): number {
  const f = parisFields(ms);
  const whole = ms - (((ms % 1000) + 1000) % 1000);
  return Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second) - whole;
}

/** The instant a Paris day (`YYYY-MM-DD`) begins: midnight, Paris time (DST changes happen at 2–3 h, never at midnight). */
export function parisDayStartMs(day: string): number {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  return utcMidnight - parisOffsetMs(utcMidnight - parisOffsetMs(utcMidnight));
}

/** The Paris day of an instant, `YYYY-MM-DD`. */
export function parisDayOf(ms: number): string {
  const p = parisFields(ms);
  return `${String(p.year).padStart(4, '0')}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}
