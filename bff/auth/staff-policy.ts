import type { Context } from 'hono';
import { routePath } from 'hono/route';
import type { Caller } from '#bff/auth/caller.ts';
import { agencyReadRecordedSince } from '#bff/auth/store/access-log.ts';
import {
  counselledAmong,
  counselledBy,
  counselledMemberIds,
  counsels,
  counselsASideOf,
  counselsChangeRequester,
  introductionSides,
  leadTaker,
  memberExists,
} from '#bff/auth/store/counsellors.ts';
import type { AccessResource } from '#bff/db/access-log-schema.ts';
import type { Db } from '#bff/db/database.ts';
import { ApiError } from '#bff/http/errors.ts';
import { log } from '#bff/logger.ts';
import { recordStaffAccess } from '#bff/auth/access-log.ts';
import { type StaffRole, staffRoleOf } from '#machines/staff/roles.ts';

/**
 * Who on the team may call each staff route, and which reads the access log records (decision
 * 206). One table, read by `staffOnly` on every staff route: a staff route missing here answers
 * 403 to everyone (closed by default), and `tests/security/staff-policy.test.ts` lists the app's
 * routes to fail on one that is missing.
 *
 * - `who`: `administration` only, or `equipe` (both roles).
 * - `scope`: what a counsellor (`conseil`) may reach through it:
 *   - `member`: the route's `:id` is a member, who must be assigned to them;
 *   - `introduction`: the `:id` is an introduction, one of whose two members is assigned to them;
 *   - `change-request`: the `:requestId` is a change request of a member assigned to them;
 *   - `lead`: the `:id` is a lead nobody has taken or that they have taken;
 *   - `filtered`: an agency-wide list the handler narrows to their members (`counselledOnly`);
 *   - `handler`: the handler checks the members it names (`assertCounsels`);
 *   - `none`: nothing about a member (tags, templates, their own unread count).
 * - `reads`: the access-log entry written after a successful (2xx) answer, before it leaves; a
 *   read of one member names them, an agency-wide read names nobody and keeps its query.
 */
type StaffScope = 'member' | 'introduction' | 'change-request' | 'lead' | 'filtered' | 'handler' | 'none';

export interface StaffRoutePolicy {
  who: 'administration' | 'equipe';
  scope: StaffScope;
  reads?: AccessResource;
}

const admin = (scope: StaffScope, reads?: AccessResource): StaffRoutePolicy => ({ who: 'administration', scope, ...(reads && { reads }) });
const team = (scope: StaffScope, reads?: AccessResource): StaffRoutePolicy => ({ who: 'equipe', scope, ...(reads && { reads }) });

export const STAFF_ROUTE_POLICY: Record<string, StaffRoutePolicy> = {
  // The agency's overview and lists.
  'GET /api/v1/dashboard/funnel': team('filtered'),
  'GET /api/v1/dashboard/members': team('filtered', 'member_list'),
  // The list's CSV (decision 210): a counsellor exports their members; every export is recorded.
  'GET /api/v1/dashboard/member-list/export': team('filtered', 'member_export'),
  // Bulk actions (decision 210): the handler checks every member named; entrusting is the administration's.
  'POST /api/v1/dashboard/member-list/bulk': team('handler'),
  'GET /api/v1/dashboard/member-search': team('filtered', 'member_search'),
  'GET /api/v1/dashboard/messages': team('filtered', 'agency_messages'),
  'GET /api/v1/dashboard/messages/unread': team('filtered', 'agency_messages'),
  'GET /api/v1/dashboard/introductions': team('filtered', 'agency_introductions'),
  'POST /api/v1/dashboard/introductions': team('handler'),
  'GET /api/v1/dashboard/agenda': team('filtered', 'agency_agenda'),
  // « Aujourd’hui » (issue 63, decision 203): a counsellor's answer is always « mine ».
  'GET /api/v1/dashboard/today': team('filtered', 'member_list'),
  'GET /api/v1/dashboard/presentations': team('filtered', 'member_presentation'),
  'GET /api/v1/dashboard/tags': team('none'),
  'GET /api/v1/dashboard/access-journal': admin('none', 'access_journal'),
  'GET /api/v1/dashboard/access-journal/export': admin('none', 'access_journal'),
  // One member's file.
  'GET /api/v1/dashboard/members/:id': team('member', 'member_file'),
  'GET /api/v1/dashboard/members/:id/contract.pdf': team('member', 'signed_contract'),
  'GET /api/v1/dashboard/members/:id/follow-up': team('member', 'member_follow_up'),
  // The file's header and its introductions (issue 63 point 2, decision 209).
  'GET /api/v1/dashboard/members/:id/summary': team('member', 'member_file'),
  'GET /api/v1/dashboard/members/:id/introductions': team('member', 'member_introductions'),
  'POST /api/v1/dashboard/members/:id/notes': team('member'),
  'PATCH /api/v1/dashboard/members/:id/notes/:noteId': team('member'),
  'DELETE /api/v1/dashboard/members/:id/notes/:noteId': team('member'),
  'POST /api/v1/dashboard/members/:id/tags': team('member'),
  'DELETE /api/v1/dashboard/members/:id/tags/:tag': team('member'),
  'PUT /api/v1/dashboard/members/:id/counsellor': admin('member'),
  'POST /api/v1/dashboard/members/:id/messages': team('member'),
  'POST /api/v1/dashboard/members/:id/messages/read': team('member'),
  'GET /api/v1/dashboard/members/:id/candidates': team('member', 'member_candidates'),
  'GET /api/v1/dashboard/members/:id/photos': team('member'),
  'GET /api/v1/dashboard/members/:id/photos/:photoId': team('member', 'member_photo'),
  'GET /api/v1/dashboard/members/:id/presentation': team('member', 'member_presentation'),
  'POST /api/v1/dashboard/members/:id/presentation/review': team('member'),
  'GET /api/v1/dashboard/members/:id/change-requests': team('member', 'member_change_requests'),
  'POST /api/v1/dashboard/change-requests/:requestId': team('change-request'),
  'GET /api/v1/dashboard/members/:id/shortlist': team('member', 'member_lists'),
  'PUT /api/v1/dashboard/members/:id/shortlist/:otherId': team('member'),
  'DELETE /api/v1/dashboard/members/:id/shortlist/:otherId': team('member'),
  'GET /api/v1/dashboard/members/:id/never-propose': team('member', 'member_lists'),
  'POST /api/v1/dashboard/members/:id/never-propose': team('member'),
  'DELETE /api/v1/dashboard/members/:id/never-propose/:otherId': team('member'),
  'GET /api/v1/dashboard/members/:id/access-log': admin('member'),
  // Introductions.
  'GET /api/v1/dashboard/introductions/:id': team('introduction', 'member_introductions'),
  'POST /api/v1/dashboard/introductions/:id/events': team('introduction'),
  'POST /api/v1/dashboard/introductions/:id/feedback': team('introduction'),
  // Money: the administration only.
  'GET /api/v1/dashboard/members/:id/billing': admin('member', 'member_billing'),
  'GET /api/v1/dashboard/members/:id/invoices': admin('member', 'member_invoice'),
  'GET /api/v1/dashboard/members/:id/invoices/:file': admin('member', 'member_invoice'),
  'GET /api/v1/dashboard/members/:id/credit-notes': admin('member', 'member_invoice'),
  'GET /api/v1/dashboard/members/:id/credit-notes/:file': admin('member', 'member_invoice'),
  'POST /api/v1/dashboard/members/:id/terminations': admin('member'),
  'GET /api/v1/dashboard/members/:id/terminations/:terminationId/proof': admin('member', 'termination_proof'),
  'GET /api/v1/dashboard/billing': admin('none', 'agency_billing'),
  'GET /api/v1/dashboard/billing/export': admin('none', 'agency_billing'),
  'GET /api/v1/dashboard/coupons': admin('none'),
  'POST /api/v1/dashboard/coupons': admin('none'),
  'PATCH /api/v1/dashboard/coupons/:id': admin('none'),
  'GET /api/v1/dashboard/settings/plans': admin('none'),
  'PUT /api/v1/dashboard/settings/plans': admin('none'),
  // Message templates: everyone uses them, the administration writes them.
  'GET /api/v1/dashboard/message-templates': team('none'),
  'GET /api/v1/dashboard/message-templates/:id/fill': team('handler', 'member_messages'),
  'POST /api/v1/dashboard/message-templates': admin('none'),
  'PUT /api/v1/dashboard/message-templates/:id': admin('none'),
  'DELETE /api/v1/dashboard/message-templates/:id': admin('none'),
  // Leads (contact messages): counsellors take the ones nobody has.
  'GET /api/v1/dashboard/leads': team('filtered', 'agency_leads'),
  'GET /api/v1/dashboard/leads-funnel': team('none'),
  'GET /api/v1/dashboard/leads/:id/history': team('lead', 'agency_leads'),
  'PATCH /api/v1/dashboard/leads/:id': team('lead'),
  'POST /api/v1/dashboard/leads/:id/notes': team('lead'),
  'POST /api/v1/dashboard/leads/:id/answers/preview': team('lead'),
  'POST /api/v1/dashboard/leads/:id/answers': team('lead'),
  'POST /api/v1/dashboard/leads/:id/erase': admin('lead'),
  // The team.
  'GET /api/v1/dashboard/staff': admin('none'),
  'PUT /api/v1/dashboard/staff/:id/role': admin('none'),
  'POST /api/v1/dashboard/staff/:id/reset-mfa': admin('none'),
  'POST /api/v1/dashboard/staff/:id/disable': admin('none'),
  'POST /api/v1/dashboard/staff/:id/enable': admin('none'),
  'GET /api/v1/dashboard/staff-invitations': admin('none'),
  'POST /api/v1/dashboard/staff-invitations': admin('none'),
  'POST /api/v1/dashboard/staff-invitations/:id/resend': admin('none'),
  'POST /api/v1/dashboard/staff-invitations/:id/revoke': admin('none'),
  // Disabling a member's account.
  'POST /api/v1/auth/ban': admin('none'),
};

/** The policy's key of the route now running: its method (HEAD as GET) and registered path. */
function routeKeyOf(c: Context): string {
  const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
  return `${method} ${routePath(c)}`;
}

const ADMINISTRATION_ONLY = () => new ApiError(403, 'ROLE_FORBIDDEN', 'Cette page est réservée à l’administration de l’agence.');
const NOT_YOURS = () =>
  new ApiError(403, 'NOT_YOUR_MEMBER', 'Ce membre n’est pas suivi par vous : demandez à l’administration de vous le confier.');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function staffRoleOfCaller(staff: Caller): StaffRole {
  return staffRoleOf(staff.member.staffRole);
}

/**
 * For a list route (`filtered`): the condition that narrows it to the caller's members, or
 * undefined for the administration (everything). `memberColumn` is the list's member id column.
 */
export function counselledOnly(staff: Caller, memberColumn: unknown) {
  return staffRoleOfCaller(staff) === 'administration' ? undefined : counselledBy(staff.id, memberColumn);
}

/**
 * For a list the server builds in full then answers (the agenda, the introductions, the queue of
 * presentations): the caller's members, or null for the administration (everything).
 */
export async function counselledIds(db: Db, staff: Caller): Promise<Set<string> | null> {
  if (staffRoleOfCaller(staff) === 'administration') return null;
  const ids = await counselledMemberIds(db, staff.id);
  return new Set(ids.map((id) => id.toLowerCase()));
}

/** For a `handler` route: each member named must be the caller's (any one of them, with `some`). */
export async function assertCounsels(db: Db, staff: Caller, memberIds: readonly string[], mode: 'every' | 'some' = 'every'): Promise<void> {
  if (staffRoleOfCaller(staff) === 'administration') return;
  const ids = memberIds.filter((id) => UUID.test(id));
  if (ids.length === 0) throw NOT_YOURS();
  const mine = new Set(await counselledAmong(db, staff.id, ids));
  const ok = mode === 'every' ? ids.every((id) => mine.has(id)) && ids.length === memberIds.length : ids.some((id) => mine.has(id));
  if (!ok) throw NOT_YOURS();
}

/** The role and scope checks of the route now running (403 in words), before its handler. */
export async function enforceStaffPolicy(c: Context, db: Db, staff: Caller): Promise<StaffRoutePolicy> {
  const key = routeKeyOf(c);
  const policy = Object.hasOwn(STAFF_ROUTE_POLICY, key) ? STAFF_ROUTE_POLICY[key] : undefined;
  if (!policy) {
    log.error('route de l’équipe absente de la table des rôles : refusée', { route: key });
    throw new ApiError(403, 'ROLE_FORBIDDEN', 'Cette action n’est ouverte à aucun rôle de l’équipe.');
  }
  const role = staffRoleOfCaller(staff);
  if (policy.who === 'administration' && role !== 'administration') throw ADMINISTRATION_ONLY();
  if (role === 'administration') return policy;
  switch (policy.scope) {
    case 'member': {
      const id = c.req.param('id') ?? '';
      // Not a member id: the handler answers its 400 or 404, with nothing read.
      if (!UUID.test(id)) return policy;
      if (!(await counsels(db, staff.id, id.toLowerCase()))) throw NOT_YOURS();
      return policy;
    }
    case 'introduction': {
      const id = c.req.param('id') ?? '';
      if (!UUID.test(id)) return policy;
      const mine = await counselsASideOf(db, staff.id, id.toLowerCase());
      // No such introduction: the handler answers its 404.
      if (mine !== undefined && !mine) throw NOT_YOURS();
      return policy;
    }
    case 'change-request': {
      const id = c.req.param('requestId') ?? '';
      if (!/^[1-9]\d{0,14}$/.test(id)) return policy;
      const mine = await counselsChangeRequester(db, staff.id, Number(id));
      if (mine !== undefined && !mine) throw NOT_YOURS();
      return policy;
    }
    case 'lead': {
      const id = c.req.param('id') ?? '';
      if (!UUID.test(id)) return policy;
      const taken = await leadTaker(db, id.toLowerCase());
      if (taken?.assigneeId && taken.assigneeId !== staff.id)
        throw new ApiError(403, 'NOT_YOUR_LEAD', 'Ce contact est suivi par un autre membre de l’équipe.');
      return policy;
    }
    default:
      return policy;
  }
}

/**
 * What an agency-wide read asked: its filters, at most 500 characters. A free-text search is kept
 * as its length only: it may hold a name or an address, which erasure could not find here.
 */
function detailOf(c: Context): string | null {
  const parts: string[] = [];
  for (const [key, value] of new URL(c.req.url).searchParams) {
    parts.push(key === 'q' ? `q=(${[...value].length} caractères)` : `${key}=${value}`);
  }
  return parts.length === 0 ? null : parts.join('&').slice(0, 500);
}

/**
 * Records the read the route just answered (after a 2xx, before the answer leaves). A read of one
 * member names them when the route's `:id` is a member; an agency-wide read names nobody. Throws
 * when the entry cannot be written: the read fails with it (decision 107).
 */
export async function recordPolicyRead(c: Context, db: Db, staff: Caller, policy: StaffRoutePolicy, now: Date): Promise<void> {
  const resource = policy.reads;
  if (!resource || c.res.status >= 300) return;
  let memberId: string | null = null;
  if (policy.scope === 'member') {
    const id = (c.req.param('id') ?? '').toLowerCase();
    if (!UUID.test(id)) return;
    memberId = id;
  } else if (policy.scope === 'introduction') {
    const id = (c.req.param('id') ?? '').toLowerCase();
    if (!UUID.test(id)) return;
    const row = await introductionSides(db, id);
    if (!row) return;
    // One entry per member read: both sides of the introduction.
    for (const member of [row.a, row.b]) {
      await recordStaffAccess(db, { staff, memberId: member, resource, requestId: c.get('requestId'), now, detail: null });
    }
    return;
  }
  if (memberId) {
    if (!(await memberExists(db, memberId))) return;
  }
  const detail = memberId ? null : detailOf(c);
  // The same agency-wide list asked again by the same colleague within minutes (a page's polling,
  // a reload) is one read: recorded once per window, so the journal stays readable. An export is a
  // copy leaving the tool: each one is recorded (decision 210).
  if (memberId === null && resource !== 'member_export') {
    const recent = await agencyReadRecordedSince(db, {
      staffId: staff.id,
      resource,
      detail,
      since: new Date(now.getTime() - REPEATED_LIST_READ_MS),
    });
    if (recent) return;
  }
  await recordStaffAccess(db, { staff, memberId, resource, requestId: c.get('requestId'), now, detail });
}

/** An agency-wide list read again within this window by the same colleague is not recorded again. */
const REPEATED_LIST_READ_MS = 10 * 60_000;
