import type { MemberProgress } from '#bff/api-type.ts';
import type { Guardian } from '#machines/introductions/guardian.ts';
import { type ApiResult, send } from '#src/lib/api-result.ts';

/**
 * The calls of « Mon accompagnement » and of the guardian's section (issue 22, decision 117),
 * typed by the BFF's own types (`bff/api-type.ts` and `machines/`, type-only). Validation is the server's: its
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

export type { Guardian } from '#machines/introductions/guardian.ts';

export interface GuardianForm {
  name: string;
  relation: string;
  email: string;
  phone: string;
  receives: string;
  contactVia: string;
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

export type { MemberProgress } from '#bff/api-type.ts';
export type { ProgressItem } from '#machines/introductions/progress.ts';

export function getProgress() {
  return request<MemberProgress>('/user/progress');
}
