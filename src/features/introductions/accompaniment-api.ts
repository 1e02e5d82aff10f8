import type { GuardianReceives, GuardianRelation } from '#machines/introductions/guardian-labels.ts';
import { type ApiResult, send } from '#src/lib/api-result.ts';

/**
 * The calls of « Mon accompagnement » and of the guardian's section (issue 22, decision 117),
 * typed after the BFF's answers (bff/api/guardian-routes.ts). Validation is the server's: its
 * French messages come back per field (`fieldErrors`).
 */

const BASE = '/api/v1';

function request<T>(path: string, method: 'GET' | 'PUT' | 'DELETE' = 'GET', body?: unknown): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return send(
    fetch(`${BASE}${path}`, {
      method,
      credentials: 'same-origin',
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  ) as Promise<ApiResult<T>>;
}

export interface Guardian {
  name: string;
  relation: GuardianRelation;
  relationLabel: string;
  email: string | null;
  phone: string | null;
  receives: GuardianReceives;
  receivesLabel: string;
  updatedAt: string;
}

export interface GuardianForm {
  name: string;
  relation: string;
  email: string;
  phone: string;
  receives: string;
  informed: boolean;
}

export function getGuardian() {
  return request<{ guardian: Guardian | null }>('/user/guardian');
}

export function saveGuardian(form: GuardianForm) {
  return request<{ guardian: Guardian }>('/user/guardian', 'PUT', form);
}

export function removeGuardian() {
  return request<{ guardian: null; removed: boolean }>('/user/guardian', 'DELETE');
}

export interface ProgressItem {
  id: string;
  proposedAt: string;
  firstName: string | null;
  outcome: string;
  criteriaMet: number;
  criteriaTotal: number;
  open: boolean;
}

export interface MemberProgress {
  counts: { proposals: number; mutual: number; meetings: number };
  introductions: ProgressItem[];
  term: { plan: string | null; durationMonths: number | null; signedAt: string | null; endsOn: string | null; note: string | null };
}

export function getProgress() {
  return request<MemberProgress>('/user/progress');
}
