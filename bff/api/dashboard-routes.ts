import { counselledOnly } from '#bff/auth/staff-policy.ts';
import { guardianOf } from '#bff/introductions/guardian.ts';
import { vValidator } from '@hono/valibot-validator';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { existingMemberId } from '#bff/api/member-param.ts';
import { staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { contractRightsView, latestTerminationOf } from '#bff/onboarding/contract-rights.ts';
import { staffActions } from '#bff/dashboard/staff-actions.ts';
import { bookings } from '#bff/db/booking-schema.ts';
import { checkoutSessions, members, onboardingEvents } from '#bff/db/schema.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { jsonBody } from '#bff/http/validate.ts';
import { presentationOf } from '#bff/matching/presentation.ts';
import { type MemberRow, recordOf } from '#bff/members/members.ts';
import { refreshStaleStages, stageKeySql } from '#bff/members/stage.ts';
import { BulkBody, runBulkAction } from '#bff/dashboard/member-bulk.ts';
import { memberListCsv } from '#bff/dashboard/member-list-export.ts';
import { MemberListFilterQuery, MemberListQuery, memberListPage, TOP_STATES } from '#bff/dashboard/member-list.ts';
import { log } from '#bff/logger.ts';
import { stateOfKey } from '#machines/onboarding/stored-stage.ts';
import { readPayInFull, writePayInFull } from '#bff/onboarding/plan-settings.ts';
import { couponActiveSchema, couponCreateSchema, createCoupon, listCoupons, setCouponActive } from '#bff/payments/coupons.ts';
import { refundsOf } from '#bff/payments/refunds.ts';
import { accessLogForStaff } from '#bff/auth/access-log.ts';
import { stateLabels } from '#machines/onboarding/labels.ts';
import { activePlans, payInFullSettingSchema } from '#machines/onboarding/plans.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { type OnboardingStateValue, stateKey, type stepIds, stepOf, steps, type TopState, topStateOf } from '#machines/onboarding/steps.ts';

const hook = (result: { success: boolean; issues?: readonly v.BaseIssue<unknown>[] }) => {
  if (!result.success) throw validationError(result.issues ?? [], 'Paramètres invalides');
};

const topStates = TOP_STATES;
const topLabels: Record<TopState, string> = {
  ...(Object.fromEntries(steps.map((s) => [s.id, s.title])) as Record<(typeof stepIds)[number], string>),
  'membre-actif': 'Membre actif',
  renonce: stateLabels.renonce,
  retracte: stateLabels.retracte,
  'contrat-termine': stateLabels['contrat-termine'],
  'resiliation-demandee': stateLabels['resiliation-demandee'],
  resilie: stateLabels.resilie,
  desactive: 'Compte désactivé',
};

const uuidSchema = v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide'));
const PlansBody = v.object({ payInFull: payInFullSettingSchema });

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

function stateOf(row: MemberRow, now: number): OnboardingStateValue {
  return stateFromRecord(recordOf(row), now);
}

function summary(row: MemberRow, now: number) {
  const value = stateOf(row, now);
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

function plansView(setting: 'cash' | 'cashback') {
  return {
    payInFull: setting,
    plans: activePlans(setting).map((p) => ({
      id: p.id,
      title: p.title,
      type: p.type,
      durationMonths: p.durationMonths,
      totalCents: p.totalCents,
    })),
  };
}

/**
 * The staff dashboard's API: every route answers only staff at aal2 (`requireStaff`); direct
 * messages are in `message-routes.ts` (decision 121). Staff actions on a
 * member are not here: they go through the chart's authority (`POST /user/update`) or the ban.
 */
export function dashboardRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(deps);
  return (
    new Hono()
      .get('/dashboard/funnel', staffOnly, async (c) => {
        const now = deps.clock.now();
        await refreshStaleStages(db);
        // One grouped query over the stored stage (decision 204), from an index alone: members per state
        // at `now`; and of those at step 6, whose meeting time has passed.
        const key = stageKeySql(now);
        const [grouped, [past]] = await Promise.all([
          db
            .select({ state: key, count: sql<number>`count(*)::int` })
            .from(members)
            // A counsellor's funnel counts their members (decision 206).
            .where(and(eq(members.role, 'member'), counselledOnly(c.var.staff, members.id)))
            // By position: the instant is a parameter, and `$1` and `$3` are not the same expression to PostgreSQL.
            .groupBy(sql`1`),
          // Step 6's members whose meeting time has passed: only they are read whole (members_stage).
          db
            .select({ n: sql<number>`count(*)::int` })
            .from(members)
            .where(
              and(
                eq(members.role, 'member'),
                counselledOnly(c.var.staff, members.id),
                eq(members.stage, 'attente-entretien-personnalise'),
                sql`(${members.onboarding}->>'onboardingMeetingDate')::timestamptz <= ${now.toISOString()}::timestamptz`,
              ),
            ),
        ]);
        const byState = new Map<string, number>();
        const byTop = new Map<TopState, number>();
        let total = 0;
        for (const row of grouped) {
          // A record the server could not read keeps no stage: counted in the total, as before it failed the whole answer.
          total += row.count;
          if (row.state === null) continue;
          byState.set(row.state, row.count);
          const top = topStateOf(stateOfKey(row.state));
          byTop.set(top, (byTop.get(top) ?? 0) + row.count);
        }
        const onboardingMeetingPast = past?.n ?? 0;
        const onboardingMeeting = byTop.get('attente-entretien-personnalise') ?? 0;
        const matchmakingMeeting = byState.get('attente.entretien-matchmaking') ?? 0;
        c.header('Cache-Control', 'private, no-store');
        return c.json(
          {
            total,
            steps: topStates.map((id) => ({
              id,
              number: steps.find((s) => s.id === id)?.number ?? null,
              title: topLabels[id],
              count: byTop.get(id) ?? 0,
            })),
            states: [...byState].map(([state, count]) => ({ state, count })).sort((a, b) => a.state.localeCompare(b.state)),
            waitingOnStaff: {
              /** At step 7: the onboarding meeting is to be marked done (or missed). */
              onboardingMeeting,
              /** Of those, the meeting time has passed. */
              onboardingMeetingPast,
              /** Withdrawal period over (or renounced): the matchmaking meeting is due. */
              matchmakingMeeting,
              total: onboardingMeeting + matchmakingMeeting,
            },
          },
          200,
        );
      })
      .get('/dashboard/members', staffOnly, vValidator('query', MemberListQuery, hook), async (c) => {
        const now = deps.clock.now();
        await refreshStaleStages(db);
        // Every filter, the order and the page in SQL, over the stored stage (decisions 204, 210).
        const page = await memberListPage(db, c.req.valid('query'), c.var.staff, now);
        c.header('Cache-Control', 'private, no-store');
        return c.json(page, 200);
      })
      // The filtered list as CSV, streamed; recorded in the access log by its policy (decision 210).
      .get('/dashboard/member-list/export', staffOnly, vValidator('query', MemberListFilterQuery, hook), async (c) => {
        const filter = c.req.valid('query');
        const now = deps.clock.now();
        await refreshStaleStages(db);
        log.info('export de la liste des membres', { reqId: c.get('requestId'), staffId: c.var.staff.id });
        c.header('Content-Type', 'text/csv; charset=utf-8');
        c.header('Content-Disposition', `attachment; filename="membres-${now.toISOString().slice(0, 10)}.csv"`);
        c.header('Cache-Control', 'private, no-store');
        c.header('X-Content-Type-Options', 'nosniff');
        const chunks = memberListCsv(db, filter, c.var.staff, now);
        const encoder = new TextEncoder();
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            const next = await chunks.next();
            if (next.done) controller.close();
            else controller.enqueue(encoder.encode(next.value));
          },
          async cancel() {
            await chunks.return(undefined);
          },
        });
        return c.body(body, 200);
      })
      // Bulk actions on the members chosen in the list (decision 210): all or nothing.
      .post('/dashboard/member-list/bulk', staffOnly, jsonBody(BulkBody), async (c) => {
        const input = c.req.valid('json');
        const result = await runBulkAction(
          { db, clock: deps.clock, mailSite: () => ({ siteUrl: deps.config.publicSiteUrl, agency: deps.config.agency }) },
          c.var.staff,
          input,
        );
        if (input.action === 'message') deps.mailQueued();
        log.info('action groupée sur des membres', {
          reqId: c.get('requestId'),
          staffId: c.var.staff.id,
          action: input.action,
          members: input.ids.length,
          changed: result.changed,
        });
        return c.json(result, 200);
      })
      .get('/dashboard/members/:id', staffOnly, async (c) => {
        const id = v.safeParse(uuidSchema, c.req.param('id'));
        if (!id.success) throw validationError(id.issues, 'Paramètres invalides');
        const [row] = await db.select().from(members).where(eq(members.id, id.output)).limit(1);
        if (row?.role !== 'member') throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
        const now = deps.clock.now().getTime();
        const record = recordOf(row);
        const [payments, meetings, events, memberRefunds, termination, presentation] = await Promise.all([
          db.select().from(checkoutSessions).where(eq(checkoutSessions.memberId, row.id)).orderBy(asc(checkoutSessions.createdAt)),
          db.select().from(bookings).where(eq(bookings.memberId, row.id)).orderBy(asc(bookings.startTime)),
          db.select().from(onboardingEvents).where(eq(onboardingEvents.memberId, row.id)).orderBy(asc(onboardingEvents.id)),
          refundsOf(db, row.id),
          latestTerminationOf(db, row.id),
          presentationOf(db, row.id),
        ]);
        // The walī and the member's choice of contact (decision 196), read with the file (logged above).
        const guardian = await guardianOf(db, row.id);
        const actorIds = [...new Set(events.map((e) => e.actorId).filter((a): a is string => a !== null))];
        const actors =
          actorIds.length > 0
            ? await db
                .select({ id: members.id, email: members.email, onboarding: members.onboarding })
                .from(members)
                .where(inArray(members.id, actorIds))
            : [];
        const emailOf = new Map(actors.map((a) => [a.id, a.email]));
        const staffNameOf = new Map(actors.map((a) => [a.id, staffName(a.onboarding)]));
        c.header('Cache-Control', 'private, no-store');
        return c.json(
          {
            member: summary(row, now),
            version: row.version,
            record,
            profile: (row.profile ?? null) as Record<string, unknown> | null,
            questionnaire: (row.questionnaire ?? null) as Record<string, unknown> | null,
            contract: (row.contract ?? null) as Record<string, unknown> | null,
            // The member's short presentation (decision 128), read with the file (logged above).
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
          },
          200,
        );
      })
      .get('/dashboard/members/:id/access-log', staffOnly, async (c) => {
        const id = await existingMemberId(db, c.req.param('id'));
        c.header('Cache-Control', 'private, no-store');
        return c.json({ entries: await accessLogForStaff(db, id) }, 200);
      })
      .get('/dashboard/settings/plans', staffOnly, async (c) => {
        c.header('Cache-Control', 'private, no-store');
        return c.json(plansView(await readPayInFull(db)), 200);
      })
      .put('/dashboard/settings/plans', staffOnly, jsonBody(PlansBody), async (c) => {
        const { payInFull } = c.req.valid('json');
        await writePayInFull(db, payInFull, deps.clock.now());
        // This instance's public pages follow at once; the others within seconds (decision 106).
        deps.payInFullChanged?.(payInFull);
        return c.json(plansView(payInFull), 200);
      })
      // Codes members type on the payment step (decision 195).
      .get('/dashboard/coupons', staffOnly, async (c) => {
        c.header('Cache-Control', 'private, no-store');
        return c.json({ coupons: await listCoupons(db) }, 200);
      })
      .post('/dashboard/coupons', staffOnly, jsonBody(couponCreateSchema), async (c) => {
        const coupon = await createCoupon(db, c.req.valid('json'), { staffId: c.var.staff.id, now: deps.clock.now() });
        return c.json({ coupon }, 201);
      })
      .patch('/dashboard/coupons/:id', staffOnly, jsonBody(couponActiveSchema), async (c) => {
        const id = c.req.param('id');
        if (!/^[1-9][0-9]{0,15}$/.test(id)) throw new ApiError(404, 'COUPON_NOT_FOUND', 'Code introuvable.');
        return c.json({ coupon: await setCouponActive(db, Number(id), c.req.valid('json').active) }, 200);
      })
  );
}
