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

function request<T>(path: string, init?: { method: 'POST' | 'PUT'; body: unknown }): Promise<ApiResult<T>> {
  const options: RequestInit = { credentials: 'same-origin', headers: { accept: 'application/json' } };
  if (init) {
    options.method = init.method;
    options.headers = { accept: 'application/json', 'content-type': 'application/json' };
    options.body = JSON.stringify(init.body);
  }
  return send(fetch(`${BASE}${path}`, options)) as Promise<ApiResult<T>>;
}

export type { MemberIntroductionView as MemberIntroduction } from '#bff/api-type.ts';

/** A candidate's criterion, one way: `side` says whose criterion it is (the member's or the candidate's), judged on the other. */
export interface CandidateReason {
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
}

export type StaffEventBody =
  | { type: 'PLAN_MEETING'; meetingAt: string; place: string; accompaniedBy?: string }
  | { type: 'RECORD_MEETING_HELD' }
  | { type: 'CANCEL_MEETING' }
  | { type: 'CLOSE'; note: string }
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

/** Staff: a member's candidates; with `outside`, those outside an indispensable criterion of either side (decision 193). */
export function listCandidates(memberId: string, outside = false) {
  return request<{ member: { id: string; firstName: string | null; unavailableReason?: string }; candidates: Candidate[] }>(
    `/dashboard/members/${encodeURIComponent(memberId)}/candidates${outside ? '?horsCriteres=true' : ''}`,
  );
}

/** Staff: a member's presentation, read on request (recorded in the access log, decision 128). */
export function readMemberPresentation(memberId: string) {
  return request<{ presentation: { text: string; updatedAt: string } | null }>(
    `/dashboard/members/${encodeURIComponent(memberId)}/presentation`,
  );
}

export function proposeIntroduction(input: { a: string; b: string; noteA?: string; noteB?: string }) {
  return request<{ introduction: { id: string } & Record<string, unknown> }>('/dashboard/introductions', { method: 'POST', body: input });
}
