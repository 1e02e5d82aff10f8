import type { FieldChange } from '#bff/api-type.ts';
import { type ApiResult, send } from '#src/lib/api-client.ts';
export interface ChangeRequest {
  id: number;
  section: 'profil' | 'questionnaire';
  changes: FieldChange[];
  note: string;
  status: 'pending' | 'applied' | 'declined';
  createdAt: string;
  decidedAt: string | null;
  decisionNote: string;
}
export interface MyAnswers {
  editable: boolean;
  signed: boolean;
  steps: { profil: boolean; questionnaire: boolean };
  profile: Record<string, unknown> | null;
  questionnaire: Record<string, unknown> | null;
  contract: Record<string, unknown> | null;
  changeRequests: ChangeRequest[];
}

function json(method: string, url: string, body?: unknown) {
  return fetch(url, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json', accept: 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** `GET /api/v1/user/answers`: every step's answers and the change requests (decision 123). */
export const getMyAnswers = () => send(json('GET', '/api/v1/user/answers')) as Promise<ApiResult<MyAnswers>>;
/** `PUT /api/v1/user/answers`: a direct edit, before the contract is signed. */
export const putMyAnswers = (body: Record<string, unknown>) =>
  send(json('PUT', '/api/v1/user/answers', body)) as Promise<ApiResult<{ section: string; changed: string[] }>>;
/** `POST /api/v1/user/change-requests`: after signature, a request to staff. */
export const postChangeRequest = (body: Record<string, unknown>) =>
  send(json('POST', '/api/v1/user/change-requests', body)) as Promise<ApiResult<{ request: ChangeRequest }>>;
/** Staff: a member's change requests. */
export const getMemberChangeRequests = (memberId: string) =>
  send(json('GET', `/api/v1/dashboard/members/${encodeURIComponent(memberId)}/change-requests`)) as Promise<
    ApiResult<{ requests: ChangeRequest[] }>
  >;
/** Staff: apply or decline one. */
export const decideChangeRequest = (id: number, body: { decision: 'apply' | 'decline'; note: string }) =>
  send(json('POST', `/api/v1/dashboard/change-requests/${id}`, body)) as Promise<ApiResult<{ request: ChangeRequest }>>;
