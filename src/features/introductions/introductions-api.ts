import type { MemberIntroductionView as MemberIntroduction, StaffIntroductionDetail, StaffIntroductionItem } from '#bff/api-type.ts';
import type { Side as CriterionSide, Verdict } from '#machines/matching/criteria.ts';
import { type ApiResult, send } from '#src/lib/api-result.ts';

/**
 * The calls of the introduction screens (issue 22): the member's proposals and the staff's follow-up.
 * Plain `fetch` through `send()` (same result shape as the typed client), with the answers typed
 * by the BFF's own views (`bff/api-type.ts`, type-only). A member never sends `side`:
 * the BFF fills it from the session.
 */

const BASE = '/api/v1';

function request<T>(path: string, init?: { method: 'POST' | 'PUT' | 'DELETE'; body?: unknown }): Promise<ApiResult<T>> {
  const options: RequestInit = { credentials: 'same-origin', headers: { accept: 'application/json' } };
  if (init) {
    options.method = init.method;
    if (init.body !== undefined) {
      options.headers = { accept: 'application/json', 'content-type': 'application/json' };
      options.body = JSON.stringify(init.body);
    }
  }
  return send(fetch(`${BASE}${path}`, options)) as Promise<ApiResult<T>>;
}

export type { MemberIntroductionView as MemberIntroduction } from '#bff/api-type.ts';

/** A candidate's criterion, one way: `side` says whose criterion it is (the member's or the candidate's), judged on the other. */
interface CandidateReason {
  criterion: string;
  side?: CriterionSide;
  verdict?: Verdict;
  met: boolean;
  required?: boolean;
  reason: string;
}

export type MemberEventBody =
  | { type: 'ACCEPT' }
  | { type: 'DECLINE'; reason: string; comment?: string }
  | { type: 'FEEDBACK'; outcome: string; reason?: string };

export function listMyIntroductions() {
  return request<{ introductions: MemberIntroduction[] }>('/user/introductions');
}

export function sendMemberEvent(id: string, body: MemberEventBody) {
  return request<{ introduction: MemberIntroduction }>(`/user/introductions/${encodeURIComponent(id)}/events`, {
    method: 'POST',
    body,
  });
}

/** Decision 196: how the other member reaches me in this introduction (`reglages`: as in my profile). */
export function setContactChoice(id: string, via: 'moi' | 'wali' | 'reglages') {
  return request<{ introduction: MemberIntroduction }>(`/user/introductions/${encodeURIComponent(id)}/contact`, {
    method: 'PUT',
    body: { via },
  });
}

// Staff

export type { StaffIntroductionDetail, StaffIntroductionItem } from '#bff/api-type.ts';

export interface Candidate {
  memberId: string;
  firstName: string | null;
  age: number | null;
  region: string;
  practice: string;
  familySituation?: string;
  childrenCount?: number;
  profession?: string;
  score: number;
  maxScore: number;
  reasons: CandidateReason[];
  /** The indispensable criteria the pair breaks, in words: the member's, the candidate's (decision 193). */
  broken?: { membre: string[]; candidat: string[] };
  /** Whether the candidate wrote a presentation (decision 128); read on request, logged. */
  hasPresentation?: boolean;
  /** Whether staff keep the candidate in the member's shortlist (decision 201). */
  shortlisted?: boolean;
  /** The richer profile in words, and what the pair shares (decision 208). */
  languages?: string[];
  educationLevel?: string | null;
  height?: string | null;
  madhhab?: string | null;
  /** Sensitive answers of a candidate who consented (decision 212), in words. */
  hijab?: string | null;
  beard?: string | null;
  affinities?: string[];
}

/** Staff's filters on the candidates (decision 201), as the screen holds them: '' is « any ». */
export interface CandidateFilterValues {
  ageMin: string;
  ageMax: string;
  region: string;
  practice: string;
  maritalStatus: string;
  enfants: '' | 'sans' | 'avec';
  counsellor: string;
  /** A language the candidate speaks, their school of thought (decision 208). */
  langue: string;
  madhhab: string;
  /** The level of education, a height range in cm, the hijab (women) or the beard (men) (decision 212). */
  etudes: string;
  tailleMin: string;
  tailleMax: string;
  voile: string;
  barbe: string;
}

export const NO_CANDIDATE_FILTERS: CandidateFilterValues = {
  ageMin: '',
  ageMax: '',
  region: '',
  practice: '',
  maritalStatus: '',
  enfants: '',
  counsellor: '',
  langue: '',
  madhhab: '',
  etudes: '',
  tailleMin: '',
  tailleMax: '',
  voile: '',
  barbe: '',
};

/** The candidates' query string: the mode, each filter given, the page (decision 201). */
export function candidatesQuery(outside: boolean, filters: CandidateFilterValues, page: number): string {
  const params = new URLSearchParams();
  if (outside) params.set('horsCriteres', 'true');
  for (const [key, value] of Object.entries(filters)) if (value.trim() !== '') params.set(key, value.trim());
  if (page > 1) params.set('page', String(page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export type StaffEventBody =
  | { type: 'PLAN_MEETING'; meetingAt: string; place: string; accompaniedBy?: string }
  | { type: 'RECORD_MEETING_HELD' }
  | { type: 'CANCEL_MEETING' }
  | { type: 'CLOSE'; note: string; message?: string; askedBy?: 'a' | 'b' }
  | { type: 'REOPEN'; note: string };

export function listIntroductions(etat: string) {
  return request<{ introductions: StaffIntroductionItem[] }>(`/dashboard/introductions?etat=${encodeURIComponent(etat)}`);
}

export function getIntroduction(id: string) {
  return request<StaffIntroductionDetail>(`/dashboard/introductions/${encodeURIComponent(id)}`);
}

export function sendStaffEvent(id: string, body: StaffEventBody) {
  return request<{ introduction: unknown }>(`/dashboard/introductions/${encodeURIComponent(id)}/events`, { method: 'POST', body });
}

/** Staff record a member's feedback heard by phone (decision 205). */
export function recordPhoneFeedback(id: string, body: { side: 'a' | 'b'; outcome: string; reason?: string }) {
  return request<{ introduction: unknown }>(`/dashboard/introductions/${encodeURIComponent(id)}/feedback`, { method: 'POST', body });
}

/** Staff: a member's candidates; with `outside`, those outside an indispensable criterion of either side (decision 193). */
export function listCandidates(memberId: string, outside = false, filters: CandidateFilterValues = NO_CANDIDATE_FILTERS, page = 1) {
  return request<{
    page: number;
    perPage: number;
    hasMore: boolean;
    member: { id: string; firstName: string | null; gender?: string; unavailableReason?: string };
    candidates: Candidate[];
  }>(`/dashboard/members/${encodeURIComponent(memberId)}/candidates${candidatesQuery(outside, filters, page)}`);
}

export interface ShortlistEntry {
  memberId: string;
  name: string | null;
  addedAt: string;
}
export interface NeverProposeEntry {
  memberId: string;
  name: string | null;
  reason: string;
  createdAt: string;
  createdBy: string | null;
}
const member = (id: string) => `/dashboard/members/${encodeURIComponent(id)}`;
/** Staff: the member's shortlist (decision 201). */
export const getShortlist = (memberId: string) => request<{ shortlist: ShortlistEntry[] }>(`${member(memberId)}/shortlist`);
export const addToShortlist = (memberId: string, otherId: string) =>
  request<{ shortlist: ShortlistEntry[] }>(`${member(memberId)}/shortlist/${encodeURIComponent(otherId)}`, { method: 'PUT' });
export const removeFromShortlist = (memberId: string, otherId: string) =>
  request<{ shortlist: ShortlistEntry[] }>(`${member(memberId)}/shortlist/${encodeURIComponent(otherId)}`, { method: 'DELETE' });
/** Staff: the pairs never to propose with this member (decision 201). */
export const getNeverPropose = (memberId: string) => request<{ pairs: NeverProposeEntry[] }>(`${member(memberId)}/never-propose`);
export const addNeverPropose = (memberId: string, otherId: string, reason: string) =>
  request<{ pairs: NeverProposeEntry[] }>(`${member(memberId)}/never-propose`, { method: 'POST', body: { otherId, reason } });
export const removeNeverPropose = (memberId: string, otherId: string) =>
  request<{ pairs: NeverProposeEntry[] }>(`${member(memberId)}/never-propose/${encodeURIComponent(otherId)}`, { method: 'DELETE' });

/** Staff: a member's presentation, read on request (recorded in the access log, decision 128). */
export function readMemberPresentation(memberId: string) {
  return request<{ presentation: { text: string; updatedAt: string } | null }>(
    `/dashboard/members/${encodeURIComponent(memberId)}/presentation`,
  );
}

export function proposeIntroduction(input: { a: string; b: string; noteA?: string; noteB?: string }) {
  return request<{ introduction: { id: string } & Record<string, unknown> }>('/dashboard/introductions', { method: 'POST', body: input });
}
