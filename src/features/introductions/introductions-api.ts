import type { GuardianContact } from '#machines/introductions/guardian.ts';
import { type ApiResult, send } from '#src/lib/api-result.ts';

/**
 * The calls of the introduction screens (issue 22): the member's proposals and the staff's follow-up.
 * Plain `fetch` through `send()` (same result shape as the typed client), with the answers typed
 * here after the BFF's views (`bff/introductions/introductions.ts`). A member never sends `side`:
 * the BFF fills it from the session.
 */

const BASE = '/api/v1';

function request<T>(path: string, init?: { method: 'POST'; body: unknown }): Promise<ApiResult<T>> {
  const options: RequestInit = { credentials: 'same-origin', headers: { accept: 'application/json' } };
  if (init) {
    options.method = init.method;
    options.headers = { accept: 'application/json', 'content-type': 'application/json' };
    options.body = JSON.stringify(init.body);
  }
  return send(fetch(`${BASE}${path}`, options)) as Promise<ApiResult<T>>;
}

export type AnswerStatus = 'pending' | 'accepted' | 'declined';

export interface CriterionReason {
  criterion: string;
  met: boolean;
  reason: string;
  side?: string;
}

export interface OtherSummary {
  firstName: string | null;
  age: number | null;
  region: string;
  practice: string;
  profession: string;
  familySituation: string;
  /** The other's own short presentation (decision 128), or null. */
  presentation?: string | null;
}

/** One proposal as its member sees it. */
export interface MemberIntroduction {
  id: string;
  state: string;
  stateLabel: string;
  proposedAt: string;
  deadlineAt: string;
  /** `reason` is already in French words. */
  myAnswer: { status: AnswerStatus; at: string | null; reason: string | null };
  note: string | null;
  other: OtherSummary | null;
  reasons: CriterionReason[];
  meeting: { at: string; place: string } | null;
  /** Once both accepted; `guardian` is the other's guardian when they chose to share the guardian's contact (decision 117). */
  contact: { email: string; phone: string | null; guardian?: GuardianContact | null } | null;
  /** The member's own feedback after the meeting in this round, or null (decision 117). */
  myFeedback?: { outcome: string; outcomeLabel: string; at: string } | null;
  /** The relation (in French) of the other's guardian, who also receives the member's contact at mutual acceptance. */
  contactAlsoToGuardian?: string | null;
  /** The other's photos, only once both accepted, each through this proposal's own URL (decision 116). */
  photos?: { id: string; url: string }[];
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

// Staff

export type Side = 'a' | 'b';

export interface StaffIntroductionItem {
  id: string;
  state: string;
  stateLabel: string;
  open: boolean;
  members: Record<Side, { id: string; firstName: string | null }>;
  answers: Record<Side, string>;
  proposedAt: string;
  deadlineAt: string;
  version: number;
}

export interface StaffIntroductionEvent {
  event: string;
  actorRole: string;
  side: Side | null;
  toStateLabel: string;
  toState?: string;
  payload?: Record<string, unknown> | null;
  at: string;
  version: number;
}

export interface StaffIntroductionDetail extends StaffIntroductionItem {
  notes: Record<Side, string | null>;
  context: {
    meeting?: { at: string; place: string } | null;
    answers?: Record<Side, { status: string; at: string | null; reason: string | null; comment: string | null }>;
    feedback?: Record<Side, { outcome: string; reason: string | null; at: string } | null>;
    closeNote?: string | null;
    meetingHeldAt?: string | null;
  } & Record<string, unknown>;
  events: StaffIntroductionEvent[];
}

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
  reasons: CriterionReason[];
  /** Whether the candidate wrote a presentation (decision 128); read on request, logged. */
  hasPresentation?: boolean;
}

export type StaffEventBody =
  | { type: 'PLAN_MEETING'; meetingAt: string; place: string }
  | { type: 'RECORD_MEETING_HELD' }
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

export function listCandidates(memberId: string) {
  return request<{ member: { id: string; firstName: string | null; unavailableReason?: string }; candidates: Candidate[] }>(
    `/dashboard/members/${encodeURIComponent(memberId)}/candidates`,
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
