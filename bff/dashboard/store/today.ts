// The staff's day's groups (decision 203): one bounded statement per source, its first rows and their count.
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';

/** How many items a group shows at most. */
export const ITEMS_PER_GROUP = 50;

/** Whose items: `now` (ISO) and `today` (the Paris day, `YYYY-MM-DD`) bound them; `counsellorId` keeps them to « mine » (null: the agency). */
export interface TodayFilter {
  now: string;
  today: string;
  counsellorId: string | null;
}

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
  return { rows: found, total: Number(found[0]?.total ?? 0) };
}

/** A member's name as staff read it: first and last name, else the address. */
const nameOf = (alias: string) =>
  sql.raw(`coalesce(nullif(trim(concat_ws(' ', ${alias}.profile->>'firstName', ${alias}.profile->>'lastName')), ''), ${alias}.email)`);

/** The member in column `column` is « mine » (always true for the agency). */
const scoped = (filter: TodayFilter, column: string) =>
  filter.counsellorId !== null
    ? sql`EXISTS (SELECT 1 FROM member_counsellors mc WHERE mc.member_id = ${sql.raw(column)} AND mc.counsellor_id = ${filter.counsellorId}::uuid)`
    : sql`TRUE`;

/**
 * Onboarding meetings whose time has passed, still waiting for « effectué » or « manqué »: the
 * partial index `members_meeting_to_note` (migration 0059) holds only those members, by the
 * meeting's instant stored beside the record (`onboarding_meeting_at`, kept by a trigger).
 */
export async function onboardingMeetingsToNote(db: Db, filter: TodayFilter): Promise<Page> {
  return page(
    db,
    sql`SELECT m.id, m.onboarding_meeting_at AS at
      FROM members m
      WHERE m.role = 'member' AND NOT m.disabled AND m.erased_at IS NULL
        AND (m.onboarding->>'onboardingMeetingReserved') = 'true'
        AND coalesce(m.onboarding->>'onboardingMeetingDone', 'false') <> 'true'
        AND m.onboarding_meeting_at IS NOT NULL
        AND m.onboarding_meeting_at <= ${filter.now}::timestamptz
        AND m.onboarding->>'contractRenouncedAt' IS NULL AND m.onboarding->>'contractWithdrawnAt' IS NULL
        AND m.onboarding->>'terminationRequestedAt' IS NULL AND m.onboarding->>'terminatedAt' IS NULL
        AND ${scoped(filter, 'm.id')}`,
    sql`at, id`,
    sql`SELECT g.id, g.at, ${nameOf('m')} AS name, g.total FROM g JOIN members m ON m.id = g.id`,
  );
}

/** Introductions' first meetings that have taken place, to be noted as held. */
export async function firstMeetingsToNote(db: Db, filter: TodayFilter): Promise<Page> {
  return page(
    db,
    sql`SELECT i.id::text AS id, i.member_a, i.member_b, i.context->'meeting'->>'at' AS at
      FROM introductions i
      WHERE i.state = 'rencontre-planifiee' AND jsonb_typeof(i.context->'meeting') = 'object'
        AND (i.context->'meeting'->>'at')::timestamptz <= ${filter.now}::timestamptz
        AND (${scoped(filter, 'i.member_a')} OR ${scoped(filter, 'i.member_b')})`,
    sql`at, id`,
    sql`SELECT g.id, g.at, ${nameOf('a')} AS name_a, ${nameOf('b')} AS name_b, g.total
      FROM g JOIN members a ON a.id = g.member_a JOIN members b ON b.id = g.member_b`,
  );
}

/** Introductions waiting on a member: an answer to a proposal, or feedback after the meeting. */
export async function introductionsAwaitingMembers(db: Db, filter: TodayFilter): Promise<Page> {
  return page(
    db,
    sql`SELECT i.id, i.member_a, i.member_b, i.state, i.deadline_at AS deadline, i.context->>'meetingHeldAt' AS held_at,
        CASE WHEN i.state LIKE 'proposee.%' THEN i.context->'answers'->'a'->>'status' = 'pending'
             ELSE jsonb_typeof(i.context->'feedback'->'a') IS DISTINCT FROM 'object' END AS waits_a,
        CASE WHEN i.state LIKE 'proposee.%' THEN i.context->'answers'->'b'->>'status' = 'pending'
             ELSE jsonb_typeof(i.context->'feedback'->'b') IS DISTINCT FROM 'object' END AS waits_b
      FROM introductions i
      WHERE (i.state LIKE 'proposee.%' OR i.state = 'retours')
        AND (${scoped(filter, 'i.member_a')} OR ${scoped(filter, 'i.member_b')})`,
    sql`(state = 'retours'), deadline, id`,
    sql`SELECT g.id, g.state, g.deadline, g.held_at, g.waits_a, g.waits_b, ${nameOf('a')} AS name_a, ${nameOf('b')} AS name_b,
        g.total FROM g JOIN members a ON a.id = g.member_a JOIN members b ON b.id = g.member_b`,
  );
}

/** Presentations written or changed, not reviewed yet (decision 200). */
export async function presentationsToReview(db: Db, filter: TodayFilter): Promise<Page> {
  return page(
    db,
    sql`SELECT p.member_id AS id, p.updated_at AS at
      FROM member_presentations p JOIN members m ON m.id = p.member_id
      WHERE p.status = 'en-attente' AND m.erased_at IS NULL AND ${scoped(filter, 'm.id')}`,
    sql`at, id`,
    sql`SELECT g.id, g.at, ${nameOf('m')} AS name, g.total FROM g JOIN members m ON m.id = g.id`,
  );
}

/** Leads whose « Relance » date has come, not converted or closed; « mine »: assigned to me or to nobody. */
export async function leadsToCallBack(db: Db, filter: TodayFilter): Promise<Page> {
  return page(
    db,
    sql`SELECT f.lead_id AS id, f.kind, f.follow_up_on AS due_on, f.status,
        coalesce(nullif(trim(c.name), ''), c.email, p.email) AS name, c.subject
      FROM lead_follow_ups f
      LEFT JOIN contact_messages c ON f.kind = 'contact' AND c.id = f.lead_id
      LEFT JOIN pre_subscriptions p ON f.kind = 'pre_subscription' AND p.id = f.lead_id
      WHERE f.follow_up_on IS NOT NULL AND f.follow_up_on <= ${filter.today}::date
        AND f.status NOT IN ('converti', 'sans_suite')
        AND (c.id IS NOT NULL OR p.id IS NOT NULL)
        ${filter.counsellorId !== null ? sql`AND (f.assignee_id IS NULL OR f.assignee_id = ${filter.counsellorId}::uuid)` : sql``}`,
    sql`due_on, id`,
    sql`SELECT g.id, g.kind, g.due_on, g.due_on::text AS day, g.status, g.name, g.subject, g.total FROM g`,
  );
}

/** Messages members wrote to the agency that nobody has read yet, by member. */
export async function unreadMessages(db: Db, filter: TodayFilter): Promise<Page> {
  return page(
    db,
    sql`SELECT d.member_id AS id, count(*)::int AS n, max(d.created_at) AS at,
        (array_agg(d.subject ORDER BY d.created_at DESC))[1] AS subject
      FROM direct_messages d JOIN members m ON m.id = d.member_id
      WHERE d.direction = 'to_agency' AND d.staff_read_at IS NULL AND m.erased_at IS NULL AND ${scoped(filter, 'm.id')}
      GROUP BY d.member_id`,
    sql`at, id`,
    sql`SELECT g.id, ${nameOf('m')} AS name, g.n, g.at, g.subject, g.total FROM g JOIN members m ON m.id = g.id`,
  );
}

/** Termination requests waiting for the staff's decision, with their two-month deadline (decision 119). */
export async function terminationsToDecide(db: Db, filter: TodayFilter): Promise<Page> {
  return page(
    db,
    sql`SELECT t.id AS key, t.member_id AS id, t.requested_at AS requested, t.due_by AS due
      FROM contract_terminations t JOIN members m ON m.id = t.member_id
      WHERE t.decision IS NULL AND m.erased_at IS NULL AND ${scoped(filter, 'm.id')}`,
    sql`due, key`,
    sql`SELECT g.key, g.id, ${nameOf('m')} AS name, g.requested, g.due, g.total FROM g JOIN members m ON m.id = g.id`,
  );
}

/** Instalments whose payment failed (decision 120). */
export async function failedInstalments(db: Db, filter: TodayFilter): Promise<Page> {
  return page(
    db,
    sql`SELECT s.id AS key, s.member_id AS id, s.number, s.amount_cents AS cents, s.failures, s.failed_at AS at
      FROM instalments s JOIN members m ON m.id = s.member_id
      WHERE s.status = 'failed' AND m.erased_at IS NULL AND ${scoped(filter, 'm.id')}`,
    sql`at, key`,
    sql`SELECT g.key, g.id, ${nameOf('m')} AS name, g.number, g.cents, g.failures, g.at, g.total
      FROM g JOIN members m ON m.id = g.id`,
  );
}

/** Money to give back: refunds not made yet, or whose attempt failed (decisions 118, 119, 175). */
export async function refundsToMake(db: Db, filter: TodayFilter): Promise<Page> {
  return page(
    db,
    sql`SELECT r.id AS key, r.member_id AS id, r.amount_cents AS cents, r.status, r.due_by AS due, r.reason
      FROM refunds r JOIN members m ON m.id = r.member_id
      WHERE r.status IN ('pending', 'failed') AND m.erased_at IS NULL AND ${scoped(filter, 'm.id')}`,
    sql`due, key`,
    sql`SELECT g.key, g.id, ${nameOf('m')} AS name, g.cents, g.status, g.due, g.reason, g.total
      FROM g JOIN members m ON m.id = g.id`,
  );
}

/** Of the members `ids`, those whose counsellor is `counsellorId` (their ids as text). */
export async function counselledAmong(db: Db, counsellorId: string, ids: string[]): Promise<Row[]> {
  return rows(
    db,
    sql`SELECT member_id::text AS id FROM member_counsellors
      WHERE counsellor_id = ${counsellorId}::uuid AND member_id IN (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
  );
}
