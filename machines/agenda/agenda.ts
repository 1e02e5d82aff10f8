import * as v from 'valibot';
import { parisDayOf, parisDayStartMs } from '#machines/paris-time.ts';

export { parisDayOf, parisDayStartMs };

/**
 * The staff agenda's period (issue 22, decision 122): whole days in the agency's time zone
 * (Europe/Paris), from `du` to `au` inclusive, at most MAX_AGENDA_DAYS. Pure: the BFF validates
 * the query and turns the days into instants with it; the dashboard page navigates with it.
 */

export const AGENDA_TIME_ZONE = 'Europe/Paris';

/** A month at most per request: a week is the widest view, and the answer stays small. */
export const MAX_AGENDA_DAYS = 31;

export const agendaKinds = ['entretien-personnalise', 'entretien-matchmaking', 'premiere-rencontre'] as const;
export type AgendaKind = (typeof agendaKinds)[number];

const DAY_MS = 24 * 60 * 60 * 1000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar day 'YYYY-MM-DD' that exists (no 2026-02-30). */
export function isCalendarDay(value: string): boolean {
  const m = DAY.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** 'YYYY-MM-DD' + n days (calendar arithmetic, no time zone). */
export function addDays(day: string, n: number): string {
  const m = DAY.exec(day);
  if (!m) throw new Error(`jour invalide : ${day}`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to` inclusive (1 for the same day; ≤ 0 when `to` is before `from`). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** The Monday of the week of `day` (weeks run Monday to Sunday in France). */
export function mondayOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 Sunday … 6 Saturday
  return addDays(day, -((weekday + 6) % 7));
}

/** The instants [from, to) covering the Paris days `du`..`au` inclusive. */
export function periodInstants(du: string, au: string): { fromMs: number; toMs: number } {
  return { fromMs: parisDayStartMs(du), toMs: parisDayStartMs(addDays(au, 1)) };
}

const daySchema = (name: string) =>
  v.pipe(
    v.string(`${name} : date attendue (AAAA-MM-JJ)`),
    v.check(isCalendarDay, `${name} : date invalide, au format AAAA-MM-JJ (par exemple 2026-11-25)`),
  );

export const PERIOD_NEEDED = 'Indiquez le début (du) et la fin (au) de la période, au format AAAA-MM-JJ.';

/** `GET /api/v1/dashboard/agenda?du=AAAA-MM-JJ&au=AAAA-MM-JJ`. */
export const AgendaQuery = v.pipe(
  v.object({ du: daySchema('Début'), au: daySchema('Fin') }, PERIOD_NEEDED),
  v.check((q) => daysBetween(q.du, q.au) >= 1, 'La fin de la période doit suivre son début.'),
  v.check((q) => daysBetween(q.du, q.au) <= MAX_AGENDA_DAYS, `Une période de ${MAX_AGENDA_DAYS} jours au plus.`),
);
export type AgendaPeriod = v.InferOutput<typeof AgendaQuery>;
