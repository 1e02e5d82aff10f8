import { api, send } from '#src/lib/api-client.ts';

/** `GET /api/v1/dashboard/members/:id/summary`: the file's header in one answer (decision 209). */
export function getMemberSummary(id: string) {
  return send(api.dashboard.members[':id'].summary.$get({ param: { id } }));
}

/** `GET /api/v1/dashboard/members/:id/introductions`: every introduction of the member, newest first. */
export function getMemberIntroductions(id: string) {
  return send(api.dashboard.members[':id'].introductions.$get({ param: { id } }));
}

type Ok<T> = T extends { ok: true; data: infer D } ? D : never;
export type MemberSummaryView = Ok<Awaited<ReturnType<typeof getMemberSummary>>>;
