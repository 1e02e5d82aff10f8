import { AGENDA_TIME_ZONE, addDays, isCalendarDay, mondayOf, parisDayOf, parisDayStartMs } from '#machines/agenda/agenda.ts';
import { frenchDateFormat, frenchTimeFormat } from '#machines/french/dates.ts';

/**
 * The agenda page's words and periods (decision 122): a day or a week (Monday to Sunday) of Paris
 * days, its title and its neighbours, items grouped by day, times in Paris time.
 */

export type AgendaView = 'jour' | 'semaine';

export interface Period {
  view: AgendaView;
  /** The day the page is about (the chosen one, or today). */
  day: string;
  du: string;
  au: string;
  previous: string;
  next: string;
}

/** The period shown for `?vue&jour` (a bad day is today's). */
export function periodOf(view: AgendaView | undefined, day: string | undefined, nowMs: number): Period {
  const v = view ?? 'semaine';
  const d = day && isCalendarDay(day) ? day : parisDayOf(nowMs);
  if (v === 'jour') return { view: v, day: d, du: d, au: d, previous: addDays(d, -1), next: addDays(d, 1) };
  const monday = mondayOf(d);
  return { view: v, day: d, du: monday, au: addDays(monday, 6), previous: addDays(monday, -7), next: addDays(monday, 7) };
}

const noon = (day: string) => new Date(parisDayStartMs(day) + 12 * 3600_000);
const longDay = frenchDateFormat({
  timeZone: AGENDA_TIME_ZONE,
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});
const dayMonth = frenchDateFormat({ timeZone: AGENDA_TIME_ZONE, day: 'numeric', month: 'long' });
const dayOnly = frenchDateFormat({ timeZone: AGENDA_TIME_ZONE, day: 'numeric' });
const monthYear = frenchDateFormat({ timeZone: AGENDA_TIME_ZONE, month: 'long', year: 'numeric' });
const year = frenchDateFormat({ timeZone: AGENDA_TIME_ZONE, year: 'numeric' });
const time = frenchTimeFormat(AGENDA_TIME_ZONE);

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** '2026-11-25' → 'Mercredi 25 novembre 2026'. */
function dayTitle(day: string): string {
  return capital(longDay.format(noon(day)));
}

/** The page's title: 'Mercredi 25 novembre 2026' or 'Semaine du 23 au 29 novembre 2026' (months and years named when they differ). */
export function periodTitle(p: Period): string {
  if (p.view === 'jour') return dayTitle(p.du);
  const from = noon(p.du);
  const to = noon(p.au);
  if (p.du.slice(0, 7) === p.au.slice(0, 7)) return `Semaine du ${dayOnly.format(from)} au ${dayOnly.format(to)} ${monthYear.format(to)}`;
  if (p.du.slice(0, 4) === p.au.slice(0, 4)) return `Semaine du ${dayMonth.format(from)} au ${dayMonth.format(to)} ${year.format(to)}`;
  return `Semaine du ${dayMonth.format(from)} ${year.format(from)} au ${dayMonth.format(to)} ${year.format(to)}`;
}

/** '2026-11-25T13:05:00Z' → '14 h 05' (Paris time). */
export function timeOf(iso: string): string {
  return time.format(new Date(iso));
}

/** The days of the period, each with its items (by time, as the server sorts them). */
export function byDay<T extends { at: string }>(p: Period, items: readonly T[]): { day: string; title: string; items: T[] }[] {
  const days: string[] = [];
  for (let d = p.du; d <= p.au; d = addDays(d, 1)) days.push(d);
  return days.map((day) => ({ day, title: dayTitle(day), items: items.filter((i) => parisDayOf(Date.parse(i.at)) === day) }));
}
