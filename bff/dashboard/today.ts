import { type SQL, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { agendaItems } from '#bff/agenda/agenda.ts';
import type { Db } from '#bff/db/database.ts';
import { stateLabel as introductionStateLabel } from '#machines/introductions/labels.ts';
import { DAY_MS } from '#machines/onboarding/instant.ts';
import { formatEuros } from '#machines/onboarding/plans.ts';
import { parisDayOf, parisDayStartMs } from '#machines/paris-time.ts';
import type { TodayGroupId } from '#machines/staff/today-groups.ts';

/**
 * The staff's day (issue 63, decision 203): `GET /api/v1/dashboard/today?scope=mine|agency`.
 * Every item that needs a person today, in groups, each computed by one SQL statement that reads
 * only the rows of its group (never every member): meetings of today and tomorrow, meetings to
 * validate once past, answers and feedback awaited, presentations to review, leads to call back,
 * unread messages, termination requests, failed instalments and refunds to make.
 * « mine »: the members whose counsellor is the signed-in staff member, and the leads assigned to
 * them or to nobody. Each item says where the SPA links to (`link`), one click away.
 */

const todayScopes = ['mine', 'agency'] as const;
export type TodayScope = (typeof todayScopes)[number];

export const TodayQuery = v.object({
  scope: v.optional(v.picklist(todayScopes, 'Portée inconnue : « mine » (mes membres) ou « agency » (toute l’agence)'), 'mine'),
});

/** Where an item leads in the back office. */
type TodayLink =
  | { kind: 'member'; memberId: string; section: 'actions' | 'profil' | 'rendez-vous' | 'contrat' | 'paiements' }
  | { kind: 'introduction'; introductionId: string }
  | { kind: 'messages'; memberId: string }
  | { kind: 'leads' };

interface TodayItem {
  /** Stable within the answer. */
  key: string;
  /** What it is, in French (« Entretien personnalisé », « Mensualité n° 3 échouée »…). */
  label: string;
  /** The people it is about (members, or the lead's name). */
  people: string[];
  /** The instant it is about: the meeting, the deadline, the latest message (ISO). */
  at: string | null;
  /** When the instant is a day (a lead's « Relance » date): `YYYY-MM-DD`. */
  day: string | null;
  /** More words (state, amount, count), or null. */
  detail: string | null;
  /** Past its time or deadline. */
  overdue: boolean;
  link: TodayLink;
}

export interface TodayGroup {
  id: TodayGroupId;
  /** How many items the group has (the answer shows at most `ITEMS_PER_GROUP`). */
  total: number;
  items: TodayItem[];
}

const ITEMS_PER_GROUP = 50;

type Row = Record<string, unknown>;

async function rows(db: Db, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}

/** A group's first `ITEMS_PER_GROUP` rows in its order, and how many there are. */
interface Page {
  rows: Row[];
  total: number;
}

/**
 * One bounded statement per source (issue 64, decision 217): the rows of `source` in `order`, the
 * first `ITEMS_PER_GROUP` only, each with the count of all (`count(*) OVER ()`), and the names
 * (`named`, reading the page as `g`) joined to those rows alone, in the same order.
 */
async function page(db: Db, source: SQL, order: SQL, named: SQL): Promise<Page> {
  const found = await rows(
    db,
    sql`WITH g AS (SELECT s.*, count(*) OVER ()::int AS total FROM (${source}) s ORDER BY ${order} LIMIT ${ITEMS_PER_GROUP})
      SELECT n.* FROM (${named}) n ORDER BY ${order}`,
  );
  return { rows: found, total: num(found[0]?.total) };
}

const iso = (value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};
const text = (value: unknown): string => (typeof value === 'string' ? value : String(value ?? ''));
const num = (value: unknown): number => Number(value ?? 0);

/** A member's name as staff read it: first and last name, else the address. */
const nameOf = (alias: string) =>
  sql.raw(`coalesce(nullif(trim(concat_ws(' ', ${alias}.profile->>'firstName', ${alias}.profile->>'lastName')), ''), ${alias}.email)`);

const euros = (cents: number) => formatEuros(Math.round(cents));

/** A group: its first items, and `total` counted by the database (every item, not only those shown). */
function group(id: TodayGroupId, items: TodayItem[], total = items.length): TodayGroup {
  return { id, total, items: items.slice(0, ITEMS_PER_GROUP) };
}

export async function staffToday(db: Db, input: { scope: TodayScope; staffId: string; now: Date }): Promise<TodayGroup[]> {
  const nowMs = input.now.getTime();
  const now = input.now.toISOString();
  const mine = input.scope === 'mine';
  const staffId = input.staffId;
  /** The member in column `column` is « mine » (always true for the agency). */
  const scoped = (column: string) =>
    mine
      ? sql`EXISTS (SELECT 1 FROM member_counsellors mc WHERE mc.member_id = ${sql.raw(column)} AND mc.counsellor_id = ${staffId}::uuid)`
      : sql`TRUE`;
  const today = parisDayOf(nowMs);
  const fromMs = parisDayStartMs(today);
  const toMs = parisDayStartMs(parisDayOf(fromMs + 2 * DAY_MS + 3 * 3_600_000));

  const [meetings, toValidate, firstMeetingsPast, answers, presentations, leads, messages, terminations, instalments, refunds] =
    await Promise.all([
      // Meetings of today and tomorrow (the agenda's sources, bounded by the two days), kept to « mine » below.
      agendaItems(db, fromMs, toMs),
      // Onboarding meetings whose time has passed, still waiting for « effectué » or « manqué »
      // (the partial index `members_meeting_to_note`, migration 0056, holds only those members).
      page(
        db,
        sql`SELECT m.id::text AS id, m.onboarding->>'onboardingMeetingDate' AS at
          FROM members m
          WHERE m.role = 'member' AND NOT m.disabled AND m.erased_at IS NULL
            AND (m.onboarding->>'onboardingMeetingReserved') = 'true'
            AND coalesce(m.onboarding->>'onboardingMeetingDone', 'false') <> 'true'
            AND m.onboarding->>'onboardingMeetingDate' IS NOT NULL
            AND (m.onboarding->>'onboardingMeetingDate')::timestamptz <= ${now}::timestamptz
            AND m.onboarding->>'contractRenouncedAt' IS NULL AND m.onboarding->>'contractWithdrawnAt' IS NULL
            AND m.onboarding->>'terminationRequestedAt' IS NULL AND m.onboarding->>'terminatedAt' IS NULL
            AND ${scoped('m.id')}`,
        sql`at, id`,
        sql`SELECT g.id, g.at, ${nameOf('m')} AS name, g.total FROM g JOIN members m ON m.id = g.id::uuid`,
      ),
      // Introductions' first meetings that have taken place, to be noted as held.
      page(
        db,
        sql`SELECT i.id::text AS id, i.member_a, i.member_b, i.context->'meeting'->>'at' AS at
          FROM introductions i
          WHERE i.state = 'rencontre-planifiee' AND jsonb_typeof(i.context->'meeting') = 'object'
            AND (i.context->'meeting'->>'at')::timestamptz <= ${now}::timestamptz
            AND (${scoped('i.member_a')} OR ${scoped('i.member_b')})`,
        sql`at, id`,
        sql`SELECT g.id, g.at, ${nameOf('a')} AS name_a, ${nameOf('b')} AS name_b, g.total
          FROM g JOIN members a ON a.id = g.member_a JOIN members b ON b.id = g.member_b`,
      ),
      // Introductions waiting on a member: an answer to a proposal, or feedback after the meeting.
      page(
        db,
        sql`SELECT i.id, i.member_a, i.member_b, i.state, i.deadline_at AS deadline, i.context->>'meetingHeldAt' AS held_at,
            CASE WHEN i.state LIKE 'proposee.%' THEN i.context->'answers'->'a'->>'status' = 'pending'
                 ELSE jsonb_typeof(i.context->'feedback'->'a') IS DISTINCT FROM 'object' END AS waits_a,
            CASE WHEN i.state LIKE 'proposee.%' THEN i.context->'answers'->'b'->>'status' = 'pending'
                 ELSE jsonb_typeof(i.context->'feedback'->'b') IS DISTINCT FROM 'object' END AS waits_b
          FROM introductions i
          WHERE (i.state LIKE 'proposee.%' OR i.state = 'retours')
            AND (${scoped('i.member_a')} OR ${scoped('i.member_b')})`,
        sql`(state = 'retours'), deadline, id`,
        sql`SELECT g.id, g.state, g.deadline, g.held_at, g.waits_a, g.waits_b, ${nameOf('a')} AS name_a, ${nameOf('b')} AS name_b,
            g.total FROM g JOIN members a ON a.id = g.member_a JOIN members b ON b.id = g.member_b`,
      ),
      // Presentations written or changed, not reviewed yet (decision 200).
      page(
        db,
        sql`SELECT p.member_id AS id, p.updated_at AS at
          FROM member_presentations p JOIN members m ON m.id = p.member_id
          WHERE p.status = 'en-attente' AND m.erased_at IS NULL AND ${scoped('m.id')}`,
        sql`at, id`,
        sql`SELECT g.id, g.at, ${nameOf('m')} AS name, g.total FROM g JOIN members m ON m.id = g.id`,
      ),
      // Leads whose « Relance » date has come, not converted or closed; « mine »: assigned to me or to nobody.
      page(
        db,
        sql`SELECT f.lead_id AS id, f.kind, f.follow_up_on AS due_on, f.status,
            coalesce(nullif(trim(c.name), ''), c.email, p.email) AS name, c.subject
          FROM lead_follow_ups f
          LEFT JOIN contact_messages c ON f.kind = 'contact' AND c.id = f.lead_id
          LEFT JOIN pre_subscriptions p ON f.kind = 'pre_subscription' AND p.id = f.lead_id
          WHERE f.follow_up_on IS NOT NULL AND f.follow_up_on <= ${today}::date
            AND f.status NOT IN ('converti', 'sans_suite')
            AND (c.id IS NOT NULL OR p.id IS NOT NULL)
            ${mine ? sql`AND (f.assignee_id IS NULL OR f.assignee_id = ${staffId}::uuid)` : sql``}`,
        sql`due_on, id`,
        sql`SELECT g.id, g.kind, g.due_on, g.due_on::text AS day, g.status, g.name, g.subject, g.total FROM g`,
      ),
      // Messages members wrote to the agency that nobody has read yet, by member.
      page(
        db,
        sql`SELECT d.member_id AS id, count(*)::int AS n, max(d.created_at) AS at,
            (array_agg(d.subject ORDER BY d.created_at DESC))[1] AS subject
          FROM direct_messages d JOIN members m ON m.id = d.member_id
          WHERE d.direction = 'to_agency' AND d.staff_read_at IS NULL AND m.erased_at IS NULL AND ${scoped('m.id')}
          GROUP BY d.member_id`,
        sql`at, id`,
        sql`SELECT g.id, ${nameOf('m')} AS name, g.n, g.at, g.subject, g.total FROM g JOIN members m ON m.id = g.id`,
      ),
      // Termination requests waiting for the staff's decision, with their two-month deadline (decision 119).
      page(
        db,
        sql`SELECT t.id AS key, t.member_id AS id, t.requested_at AS requested, t.due_by AS due
          FROM contract_terminations t JOIN members m ON m.id = t.member_id
          WHERE t.decision IS NULL AND m.erased_at IS NULL AND ${scoped('m.id')}`,
        sql`due, key`,
        sql`SELECT g.key, g.id, ${nameOf('m')} AS name, g.requested, g.due, g.total FROM g JOIN members m ON m.id = g.id`,
      ),
      // Instalments whose payment failed (decision 120).
      page(
        db,
        sql`SELECT s.id AS key, s.member_id AS id, s.number, s.amount_cents AS cents, s.failures, s.failed_at AS at
          FROM instalments s JOIN members m ON m.id = s.member_id
          WHERE s.status = 'failed' AND m.erased_at IS NULL AND ${scoped('m.id')}`,
        sql`at, key`,
        sql`SELECT g.key, g.id, ${nameOf('m')} AS name, g.number, g.cents, g.failures, g.at, g.total
          FROM g JOIN members m ON m.id = g.id`,
      ),
      // Money to give back: refunds not made yet, or whose attempt failed (decisions 118, 119, 175).
      page(
        db,
        sql`SELECT r.id AS key, r.member_id AS id, r.amount_cents AS cents, r.status, r.due_by AS due, r.reason
          FROM refunds r JOIN members m ON m.id = r.member_id
          WHERE r.status IN ('pending', 'failed') AND m.erased_at IS NULL AND ${scoped('m.id')}`,
        sql`due, key`,
        sql`SELECT g.key, g.id, ${nameOf('m')} AS name, g.cents, g.status, g.due, g.reason, g.total
          FROM g JOIN members m ON m.id = g.id`,
      ),
    ]);

  // The meetings of the two days, kept to « mine » with one look-up of the counsellors of their members.
  let dayMeetings = meetings;
  if (mine && meetings.length > 0) {
    const ids = [...new Set(meetings.flatMap((m) => m.members.map((p) => p.id)))];
    const assigned = await rows(
      db,
      sql`SELECT member_id::text AS id FROM member_counsellors
        WHERE counsellor_id = ${staffId}::uuid AND member_id IN (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
    );
    const set = new Set(assigned.map((r) => text(r.id)));
    dayMeetings = meetings.filter((m) => m.members.some((p) => set.has(p.id)));
  }

  const meetingItems: TodayItem[] = dayMeetings.map((m) => ({
    key: m.key,
    label: m.kindLabel,
    people: m.members.map((p) => p.name),
    at: m.at,
    day: null,
    detail: m.place ?? m.detail,
    overdue: false,
    link:
      m.introductionId !== null
        ? { kind: 'introduction', introductionId: m.introductionId }
        : { kind: 'member', memberId: m.members[0]?.id ?? '', section: 'rendez-vous' },
  }));

  const toValidateItems: TodayItem[] = [
    ...toValidate.rows.map(
      (r): TodayItem => ({
        key: `onboarding:${text(r.id)}`,
        label: 'Entretien personnalisé à noter (effectué ou manqué)',
        people: [text(r.name)],
        at: iso(r.at),
        day: null,
        detail: null,
        overdue: true,
        link: { kind: 'member', memberId: text(r.id), section: 'actions' },
      }),
    ),
    ...firstMeetingsPast.rows.map(
      (r): TodayItem => ({
        key: `first-meeting:${text(r.id)}`,
        label: 'Première rencontre à noter comme tenue',
        people: [text(r.name_a), text(r.name_b)],
        at: iso(r.at),
        day: null,
        detail: null,
        overdue: true,
        link: { kind: 'introduction', introductionId: text(r.id) },
      }),
    ),
  ].sort((x, y) => (x.at ?? '').localeCompare(y.at ?? '') || x.key.localeCompare(y.key));

  const answerItems: TodayItem[] = answers.rows.map((r) => {
    const feedback = text(r.state) === 'retours';
    const waiting = [r.waits_a === true ? text(r.name_a) : null, r.waits_b === true ? text(r.name_b) : null].filter(
      (x): x is string => x !== null,
    );
    const deadline = iso(r.deadline);
    return {
      key: `introduction:${text(r.id)}`,
      label: feedback ? 'Retour après la première rencontre attendu' : 'Réponse à une proposition attendue',
      people: [text(r.name_a), text(r.name_b)],
      at: feedback ? iso(r.held_at) : deadline,
      day: null,
      detail: `${introductionStateLabel(text(r.state))}${waiting.length > 0 ? ` — ${feedback ? 'retour attendu' : 'réponse attendue'} : ${waiting.join(' et ')}` : ''}`,
      overdue: !feedback && deadline !== null && Date.parse(deadline) <= nowMs,
      link: { kind: 'introduction', introductionId: text(r.id) },
    };
  });

  const presentationItems: TodayItem[] = presentations.rows.map((r) => ({
    key: `presentation:${text(r.id)}`,
    label: 'Présentation à relire',
    people: [text(r.name)],
    at: iso(r.at),
    day: null,
    detail: null,
    overdue: false,
    link: { kind: 'member', memberId: text(r.id), section: 'profil' },
  }));

  const leadItems: TodayItem[] = leads.rows.map((r) => ({
    key: `lead:${text(r.id)}`,
    label: text(r.kind) === 'contact' ? 'Message de contact à relancer' : 'Pré-inscription à relancer',
    people: [text(r.name)],
    at: null,
    day: text(r.day),
    detail: typeof r.subject === 'string' && r.subject.trim() !== '' ? `Objet : ${r.subject.trim()}` : null,
    overdue: text(r.day) < today,
    link: { kind: 'leads' },
  }));

  const messageItems: TodayItem[] = messages.rows.map((r) => ({
    key: `messages:${text(r.id)}`,
    label: num(r.n) > 1 ? `${num(r.n)} messages non lus` : '1 message non lu',
    people: [text(r.name)],
    at: iso(r.at),
    day: null,
    detail: typeof r.subject === 'string' && r.subject.trim() !== '' ? `Objet : ${r.subject.trim()}` : null,
    overdue: false,
    link: { kind: 'messages', memberId: text(r.id) },
  }));

  const terminationItems: TodayItem[] = terminations.rows.map((r) => {
    const due = iso(r.due);
    return {
      key: `termination:${text(r.key)}`,
      label: 'Demande de résiliation à décider',
      people: [text(r.name)],
      at: due,
      day: null,
      detail: null,
      overdue: due !== null && Date.parse(due) <= nowMs,
      link: { kind: 'member', memberId: text(r.id), section: 'contrat' },
    };
  });

  const paymentItems: TodayItem[] = [
    ...instalments.rows.map(
      (r): TodayItem => ({
        key: `instalment:${text(r.key)}`,
        label: `Mensualité n°\u00a0${num(r.number)} échouée`,
        people: [text(r.name)],
        at: iso(r.at),
        day: null,
        detail: `${euros(num(r.cents))}, ${num(r.failures) > 1 ? `${num(r.failures)} échecs` : '1 échec'}`,
        overdue: true,
        link: { kind: 'member', memberId: text(r.id), section: 'paiements' },
      }),
    ),
    ...refunds.rows.map((r): TodayItem => {
      const due = iso(r.due);
      return {
        key: `refund:${text(r.key)}`,
        label: text(r.status) === 'failed' ? 'Remboursement échoué, à refaire' : 'Remboursement à effectuer',
        people: [text(r.name)],
        at: due,
        day: null,
        detail: euros(num(r.cents)),
        overdue: text(r.status) === 'failed' || (due !== null && Date.parse(due) <= nowMs),
        link: { kind: 'member', memberId: text(r.id), section: 'paiements' },
      };
    }),
  ];

  return [
    group('meetings', meetingItems),
    group('toValidate', toValidateItems, toValidate.total + firstMeetingsPast.total),
    group('answers', answerItems, answers.total),
    group('presentations', presentationItems, presentations.total),
    group('leads', leadItems, leads.total),
    group('messages', messageItems, messages.total),
    group('terminations', terminationItems, terminations.total),
    group('payments', paymentItems, instalments.total + refunds.total),
  ];
}
