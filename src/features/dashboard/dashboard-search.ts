import * as v from 'valibot';
import { stepIds } from '#machines/onboarding/steps.ts';

/** Search params of `/dashboard` (list state lives in the URL). Malformed values fall back to defaults. */
export const dashboardTopStates = [...stepIds, 'membre-actif', 'desactive'] as const;

export const DashboardSearchSchema = v.object({
  q: v.fallback(v.optional(v.pipe(v.string(), v.maxLength(100))), undefined),
  step: v.fallback(v.optional(v.picklist(dashboardTopStates)), undefined),
  sort: v.fallback(v.optional(v.picklist(['created', 'updated', 'email'] as const)), undefined),
  dir: v.fallback(v.optional(v.picklist(['asc', 'desc'] as const)), undefined),
  page: v.fallback(v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))), undefined),
});
export type DashboardSearch = v.InferOutput<typeof DashboardSearchSchema>;

export const formatDate = (iso: string) =>
  new Intl.DateTimeFormat('fr-FR', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Paris' }).format(new Date(iso));

export const formatEuros = (cents: number | null) =>
  cents === null ? '—' : new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(cents / 100);
