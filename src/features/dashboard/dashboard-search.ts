import { stepIds } from '#machines/onboarding/step-ids.ts';
import { integerFrom, oneOf } from '#src/lib/search-params.ts';

/** Search params of `/dashboard` (list state lives in the URL). Malformed values fall back to defaults. */
export const dashboardEndStates = [
  'membre-actif',
  'resiliation-demandee',
  'renonce',
  'retracte',
  'contrat-termine',
  'resilie',
  'desactive',
] as const;
export type DashboardEndState = (typeof dashboardEndStates)[number];
const dashboardTopStates = [...stepIds, ...dashboardEndStates] as const;

export interface DashboardSearch {
  q?: string;
  step?: (typeof dashboardTopStates)[number];
  sort?: 'created' | 'updated' | 'email';
  dir?: 'asc' | 'desc';
  page?: number;
  /** Staff's follow-up (decision 124): a tag, a counsellor's id or `aucun`. */
  tag?: string;
  counsellor?: string;
}

export function DashboardSearchSchema(search: Record<string, unknown>): DashboardSearch {
  return {
    q: typeof search.q === 'string' && search.q.length <= 100 ? search.q : undefined,
    step: oneOf(search.step, dashboardTopStates),
    sort: oneOf(search.sort, ['created', 'updated', 'email'] as const),
    dir: oneOf(search.dir, ['asc', 'desc'] as const),
    page: integerFrom(search.page, 1),
    tag: typeof search.tag === 'string' && search.tag.length > 0 && search.tag.length <= 40 ? search.tag : undefined,
    counsellor: typeof search.counsellor === 'string' && /^(aucun|[0-9a-f-]{36})$/i.test(search.counsellor) ? search.counsellor : undefined,
  };
}
