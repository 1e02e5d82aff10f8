import { contractRightsView, latestTerminationOf } from '#bff/contract/contract-rights.ts';
import { refundsOf } from '#bff/payments/refunds.ts';
import { vValidator } from '@hono/valibot-validator';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { requireCaller, staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { staffActions } from '#bff/dashboard/staff-actions.ts';
import { bookings } from '#bff/db/booking-schema.ts';
import { directMessages } from '#bff/db/messages-schema.ts';
import { checkoutSessions, members, onboardingEvents } from '#bff/db/schema.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { enqueueMail } from '#bff/mail/outbox.ts';
import { accessLogForStaff, recordStaffAccess } from '#bff/privacy/access-log.ts';
import { type MemberRow, recordOf } from '#bff/members/members.ts';
import { readPayInFull, writePayInFull } from '#bff/onboarding/plan-settings.ts';
import { instantMs } from '#machines/onboarding/instant.ts';
import { activePlans, payInFullSettingSchema } from '#machines/onboarding/plans.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import {
  contractEndStates,
  type OnboardingStateValue,
  stateKey,
  stepIds,
  stepOf,
  steps,
  type TopState,
  topStateOf,
} from '#machines/onboarding/steps.ts';
import { stateLabels } from '#machines/onboarding/labels.ts';

const hook = (result: { success: boolean; issues?: readonly v.BaseIssue<unknown>[] }) => {
  if (!result.success) throw validationError(result.issues ?? [], 'Paramètres invalides');
};

const topStates = [
  ...stepIds,
  'membre-actif',
  'resiliation-demandee',
  ...contractEndStates,
  'desactive',
] as const satisfies readonly TopState[];
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
const intParam = (min: number, max: number, fallback: string) =>
  v.pipe(
    v.optional(v.string(), fallback),
    v.regex(/^\d{1,6}$/, 'Nombre entier attendu'),
    v.transform(Number),
    v.minValue(min, `Au moins ${min}`),
    v.maxValue(max, `Au plus ${max}`),
  );

/** `GET /dashboard/members` query: search, step filter, sorting and paging. */
export const MembersQuery = v.object({
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, 'Recherche trop longue'))),
  step: v.optional(v.picklist(topStates, 'Étape inconnue')),
  sort: v.optional(v.picklist(['created', 'updated', 'email'] as const, 'Tri inconnu'), 'created'),
  dir: v.optional(v.picklist(['asc', 'desc'] as const, 'Ordre inconnu')),
  page: intParam(1, 100_000, '1'),
  perPage: intParam(1, 100, '20'),
});

const MessageBody = v.object({
  subject: v.optional(v.pipe(v.string('Objet invalide'), v.trim(), v.maxLength(150, 'Objet trop long (150 caractères au plus)')), ''),
  body: v.pipe(
    v.string('Message requis'),
    v.trim(),
    v.minLength(1, 'Message requis'),
    v.maxLength(5000, 'Message trop long (5 000 caractères au plus)'),
  ),
});

const MessagesQuery = v.object({ memberId: v.optional(uuidSchema) });
const PlansBody = v.object({ payInFull: payInFullSettingSchema });

const DEFAULT_SUBJECT = 'Un message de l’agence Union Sincère';

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
function eventDetails(payload: unknown): { outcome: boolean | null; planId: string | null } {
  const p = (payload ?? {}) as { status?: unknown; completed?: unknown; disable?: unknown; context?: unknown; id?: unknown };
  const outcome = [p.status, p.completed, p.disable].find((value): value is boolean => typeof value === 'boolean') ?? null;
  return { outcome, planId: p.context === 'sel_plan' && typeof p.id === 'string' ? p.id : null };
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
 * The staff dashboard's API: every route answers only staff at aal2 (`requireStaff`), except
 * `GET /user/messages`, where a member reads the messages staff sent them. Staff actions on a
 * member are not here: they go through the chart's authority (`POST /user/update`) or the ban.
 */
export function dashboardRoutes(deps: ApiDeps) {
  const guardDeps = { database: deps.database, auth: deps.auth };
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(guardDeps);
  return new Hono()
    .get('/dashboard/funnel', staffOnly, async (c) => {
      const now = deps.clock.now().getTime();
      const rows = await db.select().from(members).where(eq(members.role, 'member'));
      const byState = new Map<string, number>();
      const byTop = new Map<TopState, number>();
      let onboardingMeeting = 0;
      let onboardingMeetingPast = 0;
      let matchmakingMeeting = 0;
      for (const row of rows) {
        const value = stateOf(row, now);
        const key = stateKey(value);
        byState.set(key, (byState.get(key) ?? 0) + 1);
        const top = topStateOf(value);
        byTop.set(top, (byTop.get(top) ?? 0) + 1);
        if (top === 'attente-entretien-personnalise') {
          onboardingMeeting += 1;
          const date = recordOf(row).onboardingMeetingDate;
          if (date !== null && instantMs(date) <= now) onboardingMeetingPast += 1;
        }
        if (key === 'attente.entretien-matchmaking') matchmakingMeeting += 1;
      }
      c.header('Cache-Control', 'private, no-store');
      return c.json(
        {
          total: rows.length,
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
    .get('/dashboard/members', staffOnly, vValidator('query', MembersQuery, hook), async (c) => {
      const query = c.req.valid('query');
      const now = deps.clock.now().getTime();
      const conditions = [eq(members.role, 'member')];
      if (query.q) {
        const pattern = `%${query.q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
        conditions.push(
          sql`(lower(${members.email}) LIKE ${pattern} OR lower(coalesce(${members.profile}->>'firstName', '') || ' ' || coalesce(${members.profile}->>'lastName', '')) LIKE ${pattern} OR lower(coalesce(${members.profile}->>'lastName', '') || ' ' || coalesce(${members.profile}->>'firstName', '')) LIKE ${pattern})`,
        );
      }
      const dir = query.dir ?? (query.sort === 'email' ? 'asc' : 'desc');
      const column =
        query.sort === 'email' ? sql`lower(${members.email})` : query.sort === 'updated' ? members.updatedAt : members.createdAt;
      const rows = await db
        .select()
        .from(members)
        .where(and(...conditions))
        .orderBy(dir === 'asc' ? asc(column) : desc(column), asc(members.id));
      // The step comes from the chart restored from each record (time settles sub-states), so the
      // step filter and the paging run here rather than in SQL.
      const all = rows.map((row) => summary(row, now)).filter((m) => !query.step || m.top === query.step);
      const start = (query.page - 1) * query.perPage;
      c.header('Cache-Control', 'private, no-store');
      return c.json(
        {
          items: all.slice(start, start + query.perPage),
          total: all.length,
          page: query.page,
          perPage: query.perPage,
          pageCount: Math.max(1, Math.ceil(all.length / query.perPage)),
          sort: query.sort,
          dir,
        },
        200,
      );
    })
    .get('/dashboard/members/:id', staffOnly, async (c) => {
      const id = v.safeParse(uuidSchema, c.req.param('id'));
      if (!id.success) throw validationError(id.issues, 'Paramètres invalides');
      const [row] = await db.select().from(members).where(eq(members.id, id.output)).limit(1);
      if (row?.role !== 'member') throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
      // Staff access log (decision 107): written before the file is answered; if it fails, so does the read.
      await recordStaffAccess(db, {
        staff: c.var.staff,
        memberId: row.id,
        resource: 'member_file',
        requestId: c.get('requestId'),
        now: deps.clock.now(),
      });
      const now = deps.clock.now().getTime();
      const record = recordOf(row);
      const [payments, meetings, events, memberRefunds, termination] = await Promise.all([
        db.select().from(checkoutSessions).where(eq(checkoutSessions.memberId, row.id)).orderBy(asc(checkoutSessions.createdAt)),
        db.select().from(bookings).where(eq(bookings.memberId, row.id)).orderBy(asc(bookings.startTime)),
        db.select().from(onboardingEvents).where(eq(onboardingEvents.memberId, row.id)).orderBy(asc(onboardingEvents.id)),
        refundsOf(db, row.id),
        latestTerminationOf(db, row.id),
      ]);
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
      const id = v.safeParse(uuidSchema, c.req.param('id'));
      if (!id.success) throw validationError(id.issues, 'Paramètres invalides');
      const [row] = await db.select({ role: members.role }).from(members).where(eq(members.id, id.output)).limit(1);
      if (row?.role !== 'member') throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
      c.header('Cache-Control', 'private, no-store');
      return c.json({ entries: await accessLogForStaff(db, id.output) }, 200);
    })
    .post('/dashboard/members/:id/messages', staffOnly, vValidator('json', MessageBody, hook), async (c) => {
      const staff = c.var.staff;
      const id = v.safeParse(uuidSchema, c.req.param('id'));
      if (!id.success) throw validationError(id.issues, 'Paramètres invalides');
      const { subject, body } = c.req.valid('json');
      const now = deps.clock.now();
      const message = await db.transaction(async (tx) => {
        const [row] = await tx.select().from(members).where(eq(members.id, id.output)).limit(1);
        if (row?.role !== 'member') throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
        const title = subject || DEFAULT_SUBJECT;
        const site = deps.config.publicSiteUrl.replace(/\/$/, '');
        const mailId = await enqueueMail(tx, {
          to: row.email,
          subject: title,
          text: `${body}\n\n—\nL’équipe Union Sincère\nRetrouvez vos messages dans votre espace : ${site}/mon-compte`,
          kind: 'direct-message',
        });
        const [inserted] = await tx
          .insert(directMessages)
          .values({ memberId: row.id, authorId: staff.id, subject: title, body, mailId, createdAt: now })
          .returning();
        if (!inserted) throw new Error('direct_messages insert returned nothing');
        return inserted;
      });
      deps.mailQueued();
      return c.json(
        {
          id: message.id,
          memberId: message.memberId,
          subject: message.subject,
          body: message.body,
          createdAt: message.createdAt.toISOString(),
          authorEmail: staff.email,
        },
        201,
      );
    })
    .get('/dashboard/messages', staffOnly, vValidator('query', MessagesQuery, hook), async (c) => {
      const { memberId } = c.req.valid('query');
      const rows = await db
        .select({
          id: directMessages.id,
          memberId: directMessages.memberId,
          memberEmail: members.email,
          authorId: directMessages.authorId,
          subject: directMessages.subject,
          body: directMessages.body,
          createdAt: directMessages.createdAt,
        })
        .from(directMessages)
        .innerJoin(members, eq(members.id, directMessages.memberId))
        .where(memberId ? eq(directMessages.memberId, memberId) : undefined)
        .orderBy(desc(directMessages.id))
        .limit(200);
      const authorIds = [...new Set(rows.map((r) => r.authorId).filter((a): a is string => a !== null))];
      const authors =
        authorIds.length > 0
          ? await db.select({ id: members.id, email: members.email }).from(members).where(inArray(members.id, authorIds))
          : [];
      const emailOf = new Map(authors.map((a) => [a.id, a.email]));
      c.header('Cache-Control', 'private, no-store');
      return c.json(
        {
          messages: rows.map((r) => ({
            id: r.id,
            memberId: r.memberId,
            memberEmail: r.memberEmail,
            authorEmail: r.authorId ? (emailOf.get(r.authorId) ?? null) : null,
            subject: r.subject,
            body: r.body,
            createdAt: r.createdAt.toISOString(),
          })),
        },
        200,
      );
    })
    .get('/dashboard/settings/plans', staffOnly, async (c) => {
      c.header('Cache-Control', 'private, no-store');
      return c.json(plansView(await readPayInFull(db)), 200);
    })
    .put('/dashboard/settings/plans', staffOnly, vValidator('json', PlansBody, hook), async (c) => {
      const { payInFull } = c.req.valid('json');
      await writePayInFull(db, payInFull, deps.clock.now());
      // This instance's public pages follow at once; the others within seconds (decision 106).
      deps.payInFullChanged?.(payInFull);
      return c.json(plansView(payInFull), 200);
    })
    .get('/user/messages', async (c) => {
      const caller = await requireCaller(c, guardDeps);
      // A member reads only the messages addressed to them; staff have none.
      const rows = await db
        .select({ id: directMessages.id, subject: directMessages.subject, body: directMessages.body, createdAt: directMessages.createdAt })
        .from(directMessages)
        .where(eq(directMessages.memberId, caller.id))
        .orderBy(desc(directMessages.id))
        .limit(200);
      c.header('Cache-Control', 'private, no-store');
      return c.json({ messages: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) }, 200);
    });
}
