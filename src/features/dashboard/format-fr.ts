/**
 * Dates and amounts as the dashboard shows them (fr-FR, the agency's time zone). Kept apart from
 * member-view.ts, with no dependency but the French date helper, because the dashboard's search
 * schema (in the app's entry, through the route tree) uses them: the public pages' first load must
 * not pull in the labels, the form schemas or libphonenumber.
 */
import { frenchDateFormat, frenchTimeFormat } from '#machines/french/dates.ts';
import { lazy } from '#machines/lazy.ts';

const TIME_ZONE = 'Europe/Paris';
const EMPTY = '—';

const dayFormat = frenchDateFormat({ timeZone: TIME_ZONE, day: 'numeric', month: 'short', year: 'numeric' });
const timeFormat = frenchTimeFormat(TIME_ZONE);
const euros = lazy(() => new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }));

/** '2026-11-24T10:30:00Z' → '24 nov. 2026 à 11 h 30' (Paris time). */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return EMPTY;
  return `${dayFormat.format(date)} à ${timeFormat.format(date)}`;
}

/** '2026-11-24T10:30:00Z' → '24 nov. 2026' (Paris time). */
export function formatDay(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? EMPTY : dayFormat.format(date);
}

/** 9500 → '95,00 €'. */
export function formatAmount(cents: number | null): string {
  return cents === null ? EMPTY : euros().format(cents / 100);
}
