import { staffActions } from '#bff/dashboard/staff-actions.ts';
import { bookingsOf, checkoutSessionsOf, eventsOf } from '#bff/dashboard/store/member-file.ts';
import { accountsByIds } from '#bff/dashboard/store/members.ts';
import { memberById } from '#bff/members/store/members.ts';
import type { Db } from '#bff/db/database.ts';
import { ApiError } from '#bff/http/errors.ts';
import { guardianOf } from '#bff/introductions/guardian.ts';
import { presentationOf } from '#bff/matching/presentation.ts';
import { type MemberRow, recordOf } from '#bff/members/members.ts';
import { contractRightsView, latestTerminationOf } from '#bff/onboarding/contract-rights.ts';
import { refundsOf } from '#bff/payments/refunds.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { stateKey, stepOf, topStateOf } from '#machines/onboarding/steps.ts';

/**
 * A member's file as staff read it (`GET /dashboard/members/:id`): the member, their record,
 * payments, meetings, rights, the walī and the event log with its authors (decision 221: the
 * queries left the route).
 */

function nameOf(row: Pick<MemberRow, 'profile'>): string | null {
  const profile = row.profile as { firstName?: unknown; lastName?: unknown } | null;
  const parts = [profile?.firstName, profile?.lastName].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
  return parts.length > 0 ? parts.join(' ') : null;
}

/** A staff account's name (`onboarding.name`, set by `npm run staff:create`), if it has one. */
function staffName(onboarding: unknown): string | null {
  const name = (onboarding as { staff?: unknown; name?: unknown } | null)?.name;
  return typeof name === 'string' && name.trim() !== '' && !name.includes('@') ? name.trim() : null;
}

/** What the history needs from a logged payload: its boolean outcome and the chosen plan, nothing else. */
function eventDetails(payload: unknown): { outcome: boolean | null; planId: string | null; counsellorName?: string } {
  const p = (payload ?? {}) as {
    status?: unknown;
    completed?: unknown;
    disable?: unknown;
    context?: unknown;
    id?: unknown;
    counsellorName?: unknown;
  };
  const outcome = [p.status, p.completed, p.disable].find((value): value is boolean => typeof value === 'boolean') ?? null;
  return {
    outcome,
    planId: p.context === 'sel_plan' && typeof p.id === 'string' ? p.id : null,
    // The counsellor's name as it was when assigned (decision 124).
    ...(p.context === 'counsellor' && typeof p.counsellorName === 'string' ? { counsellorName: p.counsellorName } : {}),
  };
}

function summary(row: MemberRow, now: number) {
  const value = stateFromRecord(recordOf(row), now);
  const step = stepOf(value);
  return {
    id: row.id,
    email: row.email,
    name: nameOf(row),
    gender: row.gender,
    state: stateKey(value),
    top: topStateOf(value),
    step: step ? { id: step.id, number: step.number, title: step.title } : null,
    disabled: row.disabled,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The member's file at `now` (ms); 404 when the id names no member. */
export async function memberFile(db: Db, id: string, now: number) {
  const row = await memberById(db, id);
  if (row?.role !== 'member') throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
  const record = recordOf(row);
  const [payments, meetings, events, memberRefunds, termination, presentation] = await Promise.all([
    checkoutSessionsOf(db, row.id),
    bookingsOf(db, row.id),
    eventsOf(db, row.id),
    refundsOf(db, row.id),
    latestTerminationOf(db, row.id),
    presentationOf(db, row.id),
  ]);
  // The walī and the member's choice of contact (decision 196), read with the file (logged by its policy).
  const guardian = await guardianOf(db, row.id);
  const actorIds = [...new Set(events.map((e) => e.actorId).filter((a): a is string => a !== null))];
  const actors = actorIds.length > 0 ? await accountsByIds(db, actorIds) : [];
  const emailOf = new Map(actors.map((a) => [a.id, a.email]));
  const staffNameOf = new Map(actors.map((a) => [a.id, staffName(a.onboarding)]));
  return {
    member: summary(row, now),
    version: row.version,
    record,
    profile: (row.profile ?? null) as Record<string, unknown> | null,
    questionnaire: (row.questionnaire ?? null) as Record<string, unknown> | null,
    contract: (row.contract ?? null) as Record<string, unknown> | null,
    // The member's short presentation (decision 128), read with the file (logged by its policy).
    presentation,
    guardian,
    payments: payments.map((p) => ({
      id: p.id,
      offerId: p.offerId,
      amountCents: p.amountTotal,
      currency: p.currency,
      status: p.status,
      paymentStatus: p.paymentStatus,
      consumedByContext: p.consumedByContext,
      createdAt: p.createdAt.toISOString(),
    })),
    meetings: meetings.map((b) => ({
      id: b.inviteeUri,
      startTime: b.startTime.toISOString(),
      endTime: b.endTime.toISOString(),
      status: b.status,
      rescheduled: b.rescheduled,
      bookedAt: b.bookedAt?.toISOString() ?? null,
      canceledAt: b.canceledAt?.toISOString() ?? null,
    })),
    actions: staffActions(record, now),
    // The member's rights and the term (decision 118): dates, deadlines and refunds owed.
    rights: contractRightsView(record, memberRefunds, termination),
    events: events.map((e) => ({
      id: e.id,
      at: e.createdAt.toISOString(),
      context: e.context,
      event: e.event,
      fromState: e.fromState,
      toState: e.toState,
      actorRole: e.actorRole,
      actorId: e.actorId,
      actorEmail: e.actorId ? (emailOf.get(e.actorId) ?? null) : null,
      actorName: e.actorId ? (staffNameOf.get(e.actorId) ?? null) : null,
      ...eventDetails(e.payload),
    })),
  };
}
