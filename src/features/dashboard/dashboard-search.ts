import { stepIds } from '#machines/onboarding/steps.ts';
import { integerFrom, oneOf } from '#src/lib/search-params.ts';

/** Search params of `/dashboard` (list state lives in the URL). Malformed values fall back to defaults. */
export const dashboardTopStates = [...stepIds, 'membre-actif', 'desactive'] as const;

export interface DashboardSearch {
  q?: string;
  step?: (typeof dashboardTopStates)[number];
  sort?: 'created' | 'updated' | 'email';
  dir?: 'asc' | 'desc';
  page?: number;
}

export function DashboardSearchSchema(search: Record<string, unknown>): DashboardSearch {
  return {
    q: typeof search.q === 'string' && search.q.length <= 100 ? search.q : undefined,
    step: oneOf(search.step, dashboardTopStates),
    sort: oneOf(search.sort, ['created', 'updated', 'email'] as const),
    dir: oneOf(search.dir, ['asc', 'desc'] as const),
    page: integerFrom(search.page, 1),
  };
}

export const formatDate = (iso: string) =>
  new Intl.DateTimeFormat('fr-FR', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Paris' }).format(new Date(iso));

export const formatEuros = (cents: number | null) =>
  cents === null ? '—' : new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(cents / 100);
