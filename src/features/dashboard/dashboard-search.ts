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

/** The member list's sortable columns (decision 210). */
const memberListSorts = ['created', 'updated', 'email', 'name', 'age', 'stage', 'counsellor'] as const;
export type MemberListSort = (typeof memberListSorts)[number];
/** The page sizes staff choose from. */
export const memberPageSizes = [20, 50, 100] as const;

export interface DashboardSearch {
  q?: string;
  step?: (typeof dashboardTopStates)[number];
  sort?: MemberListSort;
  dir?: 'asc' | 'desc';
  page?: number;
  /** Staff's follow-up (decision 124): a tag, a counsellor's id or `aucun`. */
  tag?: string;
  counsellor?: string;
  /** Issue 63 point 3 (decision 210): sex, age range, region, practice, page size. */
  gender?: 'homme' | 'femme';
  ageMin?: number;
  ageMax?: number;
  region?: string;
  practice?: string;
  perPage?: (typeof memberPageSizes)[number];
}

const age = (value: unknown) => {
  const n = typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 18 && n <= 120 ? n : undefined;
};
const code = (value: unknown) => (typeof value === 'string' && /^[a-z-]{1,40}$/.test(value) ? value : undefined);

export function DashboardSearchSchema(search: Record<string, unknown>): DashboardSearch {
  return {
    q: typeof search.q === 'string' && search.q.length <= 100 ? search.q : undefined,
    step: oneOf(search.step, dashboardTopStates),
    sort: oneOf(search.sort, memberListSorts),
    dir: oneOf(search.dir, ['asc', 'desc'] as const),
    page: integerFrom(search.page, 1),
    tag: typeof search.tag === 'string' && search.tag.length > 0 && search.tag.length <= 40 ? search.tag : undefined,
    counsellor: typeof search.counsellor === 'string' && /^(aucun|[0-9a-f-]{36})$/i.test(search.counsellor) ? search.counsellor : undefined,
    gender: oneOf(search.gender, ['homme', 'femme'] as const),
    ageMin: age(search.ageMin),
    ageMax: age(search.ageMax),
    region: code(search.region),
    practice: code(search.practice),
    perPage: memberPageSizes.find((size) => size === Number(search.perPage)),
  };
}
