import { api, send } from '#src/lib/api-client.ts';
import { staffKeys } from '#src/features/dashboard/staff-queries.ts';
import { unwrap } from '#src/lib/query-client.ts';

/**
 * The staff dashboard's calls (typed client of `bff/api/dashboard-routes.ts` and
 * `bff/api/staff-routes.ts`). Each returns `send()`'s `{ ok, data } | { ok: false, error }`.
 */

export type MembersQuery = {
  q?: string;
  step?: string;
  sort?: string;
  dir?: 'asc' | 'desc';
  page?: number;
  perPage?: number;
  tag?: string;
  counsellor?: string;
  gender?: string;
  ageMin?: number;
  ageMax?: number;
  region?: string;
  practice?: string;
};

export const PER_PAGE = 20;

export function getFunnel() {
  return send(api.dashboard.funnel.$get());
}

/** The list's filters as query parameters (the list, its export): only those set. */
function memberFilterParams(query: Omit<MembersQuery, 'page' | 'perPage'>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const key of ['q', 'step', 'tag', 'counsellor', 'gender', 'ageMin', 'ageMax', 'region', 'practice', 'sort', 'dir'] as const) {
    const value = query[key];
    if (value !== undefined && value !== '') params[key] = String(value);
  }
  return params;
}

export function listMembers(query: MembersQuery) {
  const params = { ...memberFilterParams(query), perPage: String(query.perPage ?? PER_PAGE), page: String(query.page ?? 1) };
  return send(api.dashboard.members.$get({ query: params }));
}
type MemberListPage = Ok<Awaited<ReturnType<typeof listMembers>>>;
export type MemberListItem = MemberListPage['items'][number];

/** The CSV of the filtered list (decision 210): a plain link, the browser downloads it. */
export function memberExportHref(query: Omit<MembersQuery, 'page' | 'perPage'>): string {
  const params = new URLSearchParams(memberFilterParams(query)).toString();
  return `/api/v1/dashboard/member-list/export${params ? `?${params}` : ''}`;
}

export type BulkAction =
  | { action: 'conseiller'; ids: string[]; counsellorId: string | null }
  | { action: 'etiquette'; ids: string[]; tag: string }
  | { action: 'message'; ids: string[]; templateId: number };

/** `POST /api/v1/dashboard/member-list/bulk`: one action on the chosen members, all or nothing. */
export function bulkAction(json: BulkAction) {
  return send(api.dashboard['member-list'].bulk.$post({ json }));
}

export function getMember(id: string) {
  return send(api.dashboard.members[':id'].$get({ param: { id } }));
}

type Ok<T> = T extends { ok: true; data: infer D } ? D : never;
export type MemberDetail = Ok<Awaited<ReturnType<typeof getMember>>>;
export type StaffAction = MemberDetail['actions'][number];

/** Sends a staff action through the same authority as the member's own events (or the ban). */
export function runStaffAction(action: StaffAction) {
  if (action.endpoint === '/auth/ban') {
    const body = action.body as { disable: boolean; uid: string };
    return send(api.auth.ban.$post({ json: { disable: body.disable, uid: body.uid } }));
  }
  return send(api.user.update.$post({ json: action.body } as never));
}

/** Staff decide a member's termination request (decision 119): accept, or refuse with a written reason. */
export function decideTermination(memberId: string, decision: { accept: true } | { accept: false; reason: string }) {
  const json = decision.accept
    ? { context: 'terminate_ok', uid: memberId }
    : { context: 'terminate_no', uid: memberId, reason: decision.reason };
  return send(api.user.update.$post({ json } as never));
}

export function sendMessage(memberId: string, message: { subject: string; body: string }) {
  return send(api.dashboard.members[':id'].messages.$post({ param: { id: memberId }, json: message }));
}

export function listMessages(memberId?: string) {
  return send(api.dashboard.messages.$get({ query: memberId ? { memberId } : {} }));
}
export type DirectMessage = Ok<Awaited<ReturnType<typeof listMessages>>>['messages'][number];

export function getPlanSetting() {
  return send(api.dashboard.settings.plans.$get());
}

export function putPlanSetting(payInFull: 'cash' | 'cashback') {
  return send(api.dashboard.settings.plans.$put({ json: { payInFull } }));
}

// Staff sign-in: password, then the TOTP second factor.

export function getMfa() {
  return send(api.auth.mfa.$get());
}

export function enrollTotp() {
  return send(api.auth.mfa.enroll.$post());
}

export function verifyTotp(factorId: string, code: string) {
  return send(api.auth.mfa.verify.$post({ json: { factorId, code } }));
}

// The team: staff accounts and the reset of a colleague's lost second factor (decision 103).

export function listStaff() {
  return send(api.dashboard.staff.$get());
}
export type StaffAccount = Ok<Awaited<ReturnType<typeof listStaff>>>['staff'][number];

export function resetStaffMfa(id: string) {
  return send(api.dashboard.staff[':id']['reset-mfa'].$post({ param: { id } }));
}

// Inviting colleagues (decision 126): the pending invitations, resend and revoke; the link's page.
export function listInvitations() {
  return send(api.dashboard['staff-invitations'].$get());
}
export type PendingInvitation = Ok<Awaited<ReturnType<typeof listInvitations>>>['invitations'][number];
export function inviteStaff(json: { email: string; name: string; role: 'administration' | 'conseil' }) {
  return send(api.dashboard['staff-invitations'].$post({ json }));
}
export function resendInvitation(id: string) {
  return send(api.dashboard['staff-invitations'][':id'].resend.$post({ param: { id } }));
}
export function revokeInvitation(id: string) {
  return send(api.dashboard['staff-invitations'][':id'].revoke.$post({ param: { id } }));
}
export function checkInvitation(token: string) {
  return send(api['staff-invitation'].check.$post({ json: { token } }));
}
export function acceptInvitation(json: { token: string; password: string; passwordRepeat: string }) {
  return send(api['staff-invitation'].accept.$post({ json }));
}

// Leads: pre-registrations and contact messages followed up by staff (decision 112).

export type LeadsFilters = {
  q?: string;
  status?: string;
  assignee?: string;
  kind?: string;
  subject?: string;
  /** Received from / until these days (`YYYY-MM-DD`, both included). */
  from?: string;
  to?: string;
  page?: number;
};

export function listLeads(filters: LeadsFilters) {
  const query: Record<string, string> = { page: String(filters.page ?? 1) };
  if (filters.q) query.q = filters.q;
  if (filters.status) query.status = filters.status;
  if (filters.assignee) query.assignee = filters.assignee;
  if (filters.kind) query.kind = filters.kind;
  if (filters.subject) query.subject = filters.subject;
  if (filters.from) query.from = filters.from;
  if (filters.to) query.to = filters.to;
  return send(api.dashboard.leads.$get({ query }));
}
export type LeadList = Ok<Awaited<ReturnType<typeof listLeads>>>;
export type Lead = LeadList['items'][number];

export function getLeadFunnel() {
  return send(api.dashboard['leads-funnel'].$get());
}

export function getLeadHistory(id: string) {
  return send(api.dashboard.leads[':id'].history.$get({ param: { id } }));
}
export type LeadEvent = Ok<Awaited<ReturnType<typeof getLeadHistory>>>['events'][number];
export type LeadAnswerSent = Ok<Awaited<ReturnType<typeof getLeadHistory>>>['answers'][number];

/** An answer by mail to a lead (decision 211): `{prenom}` and `{agence}` filled by the server. */
export type LeadAnswerDraft = { subject: string; body: string; templateId?: number | null };

/** Exactly what « Envoyer » would send, nothing written. */
export function previewLeadAnswer(id: string, json: LeadAnswerDraft) {
  return send(api.dashboard.leads[':id'].answers.preview.$post({ param: { id }, json }));
}

export function sendLeadAnswer(id: string, json: LeadAnswerDraft) {
  return send(api.dashboard.leads[':id'].answers.$post({ param: { id }, json }));
}

export function changeLead(
  id: string,
  change: { status?: 'nouveau' | 'contacte' | 'converti' | 'sans_suite'; assigneeId?: string | null; followUpOn?: string | null },
) {
  return send(api.dashboard.leads[':id'].$patch({ param: { id }, json: change }));
}

export function addLeadNote(id: string, body: string) {
  return send(api.dashboard.leads[':id'].notes.$post({ param: { id }, json: { body } }));
}

/** A prospect's erasure request (decision 157): everything held about the lead's address goes. */
export function eraseLead(id: string) {
  return send(api.dashboard.leads[':id'].erase.$post({ param: { id } }));
}

/** The recipient combobox: a few members matching a name or an address (decision 121). */
export function searchMembers(q: string) {
  return send(api.dashboard['member-search'].$get({ query: { q } }));
}

/** Marks what this member wrote to the agency as read by staff. */
export function markMemberMessagesRead(memberId: string) {
  return send(api.dashboard.members[':id'].messages.read.$post({ param: { id: memberId } }));
}

export function listTemplates() {
  return send(api.dashboard['message-templates'].$get());
}
/** The message templates (decision 214's `staffKeys.templates`): the lead answer form, the bulk bar, the closing dialog. */
export const templatesQuery = { queryKey: staffKeys.templates, queryFn: () => unwrap(listTemplates()) };
export type MessageTemplate = Ok<Awaited<ReturnType<typeof listTemplates>>>['templates'][number];
export type TemplateDraft = { title: string; subject: string; body: string; kind: 'membre' | 'prospect' };

export function createTemplate(draft: TemplateDraft) {
  return send(api.dashboard['message-templates'].$post({ json: draft }));
}

export function updateTemplate(id: number, draft: TemplateDraft) {
  return send(api.dashboard['message-templates'][':id'].$put({ param: { id: String(id) }, json: draft }));
}

export function deleteTemplate(id: number) {
  return send(api.dashboard['message-templates'][':id'].$delete({ param: { id: String(id) } }));
}

/** A template with its placeholders filled from one member's data. */
export function fillTemplate(id: number, memberId: string) {
  return send(api.dashboard['message-templates'][':id'].fill.$get({ param: { id: String(id) }, query: { memberId } }));
}

// Codes for the file fee (decision 195).

export function listCoupons() {
  return send(api.dashboard.coupons.$get());
}

export type CouponInput = {
  code: string;
  discount: { kind: 'waiver' } | { kind: 'amount'; amountCents: number };
  validFrom: string;
  validUntil: string;
  maxUses: number;
};

export function createCoupon(input: CouponInput) {
  return send(api.dashboard.coupons.$post({ json: input }));
}

export function setCouponActive(id: number, active: boolean) {
  return send(api.dashboard.coupons[':id'].$patch({ param: { id: String(id) }, json: { active } }));
}
export type CouponRow = Ok<Awaited<ReturnType<typeof listCoupons>>>['coupons'][number];
