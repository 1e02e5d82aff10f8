// The leads inbox's rows: leads, their follow-up, notes, history and answers (every SQL statement about them).
import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { leadAnswers, leadEvents, leadFollowUps, leadNotes } from '#bff/db/leads-schema.ts';
import { messageTemplates } from '#bff/db/messages-schema.ts';
import { mailOutbox, members, preSubscriptions } from '#bff/db/schema.ts';
import { type LeadKind, PRE_REGISTRATION_SUBJECT } from '#machines/leads/labels.ts';
import { type LeadsQuery, UNASSIGNED } from '#machines/leads/leads.ts';
import type * as v from 'valibot';

/**
 * The leads inbox's storage (decision 112, 211): every SQL statement about leads, their
 * follow-up, notes, history and answers. The domain module (`../leads.ts`) owns the rules.
 */

export interface LeadRow {
  id: string;
  kind: LeadKind;
  name: string | null;
  email: string;
  createdAt: Date;
  /** The member account the pre-registration became (decision 127), if any. */
  memberId: string | null;
  details: { gender?: string; age?: number; zipCode?: string; city?: string; subject?: string; message?: string };
}

/**
 * Both kinds of lead as one relation, each pre-registration with the member account it became:
 * the one created with its link (even under another address), else one opened with its address.
 */
const leadsRelation = sql`(
  SELECT p.id, 'pre_subscription'::text AS kind, NULL::text AS name, p.email, p.created_at,
         NULL::text AS subject, NULL::text AS message, p.gender, p.age, p.zip_code, p.city,
         COALESCE(
           (SELECT m.id FROM members m WHERE m.id = p.member_id AND m.role = 'member'),
           (SELECT m.id FROM members m WHERE lower(m.email) = lower(p.email) AND m.role = 'member')
         ) AS member_id
    FROM pre_subscriptions p
  UNION ALL
  SELECT c.id, 'contact'::text, c.name, c.email, c.created_at, c.subject, c.message,
         NULL::text, NULL::smallint, NULL::text, NULL::text, NULL::uuid
    FROM contact_messages c
) l`;

type RawLead = {
  id: string;
  kind: LeadKind;
  name: string | null;
  email: string;
  created_at: string | Date;
  subject: string | null;
  message: string | null;
  gender: string | null;
  age: number | null;
  zip_code: string | null;
  city: string | null;
  member_id: string | null;
};

function leadOf(row: RawLead): LeadRow {
  const details: LeadRow['details'] =
    row.kind === 'contact'
      ? { subject: row.subject ?? '', message: row.message ?? '' }
      : { gender: row.gender ?? '', age: Number(row.age), zipCode: row.zip_code ?? '', city: row.city ?? '' };
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    email: row.email,
    createdAt: new Date(row.created_at),
    memberId: row.member_id,
    details,
  };
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** The lead with this id, from either table, with the account a pre-registration became. */
export async function findLead(db: Db | Transaction, id: string): Promise<LeadRow | null> {
  const rows = rowsOf<RawLead>(await db.execute(sql`SELECT * FROM ${leadsRelation} WHERE l.id = ${id} LIMIT 1`));
  return rows[0] ? leadOf(rows[0]) : null;
}

export type InboxFilters = v.InferOutput<typeof LeadsQuery>;

export interface InboxRow extends LeadRow {
  status: string;
  assigneeId: string | null;
  followUpOn: string | null;
}

/**
 * One page of the inbox, newest first, and how many leads match: filters, search, period and
 * paging in SQL, the page and its count as two statements run at once (issue 64 point 2). `onlyFor`: a counsellor's id, who sees the leads
 * nobody has taken and theirs (decision 206).
 */
export async function inboxPage(db: Db, filters: InboxFilters, onlyFor: string | null): Promise<{ rows: InboxRow[]; total: number }> {
  const status = sql`CASE WHEN l.member_id IS NOT NULL THEN 'converti' ELSE COALESCE(f.status, 'nouveau') END`;
  const where: SQL[] = [];
  if (onlyFor) where.push(sql`(f.assignee_id IS NULL OR f.assignee_id = ${onlyFor})`);
  if (filters.status) where.push(sql`${status} = ${filters.status}`);
  if (filters.kind) where.push(sql`l.kind = ${filters.kind}`);
  if (filters.assignee === UNASSIGNED) where.push(sql`f.assignee_id IS NULL`);
  else if (filters.assignee) where.push(sql`f.assignee_id = ${filters.assignee}`);
  if (filters.subject === PRE_REGISTRATION_SUBJECT) where.push(sql`l.kind = 'pre_subscription'`);
  else if (filters.subject) where.push(sql`l.subject = ${filters.subject}`);
  // Days in the agency's time zone, both included: bounds the indexes on `created_at` serve.
  if (filters.from) where.push(sql`l.created_at >= (${filters.from}::date::timestamp AT TIME ZONE 'Europe/Paris')`);
  if (filters.to) where.push(sql`l.created_at < ((${filters.to}::date + 1)::timestamp AT TIME ZONE 'Europe/Paris')`);
  if (filters.q) {
    const haystack = sql`lower(concat_ws(E'\\n', l.name, l.email, l.city, l.zip_code, l.subject, l.message))`;
    where.push(sql`position(${filters.q.toLowerCase()} in ${haystack}) > 0`);
  }
  const condition = where.length > 0 ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``;
  // The page walks the `created_at` indexes and stops at its last row; the count, apart and at
  // once, reads only what the conditions need (decision 217: a window count made every lead
  // go through the page's columns and joins).
  const [page, counted] = await Promise.all([
    db.execute(sql`
      SELECT l.*, ${status} AS status, f.assignee_id, f.follow_up_on::text AS follow_up_on
        FROM ${leadsRelation}
        LEFT JOIN lead_follow_ups f ON f.lead_id = l.id
        ${condition}
       ORDER BY l.created_at DESC, l.id ASC
       LIMIT ${filters.perPage} OFFSET ${(filters.page - 1) * filters.perPage}`),
    db.execute(sql`SELECT count(*)::int AS n FROM ${leadsRelation} LEFT JOIN lead_follow_ups f ON f.lead_id = l.id ${condition}`),
  ]);
  const rows = rowsOf<RawLead & { status: string; assignee_id: string | null; follow_up_on: string | null }>(page);
  const total = rowsOf<{ n: number }>(counted)[0]?.n ?? 0;
  return {
    rows: rows.map((r) => ({ ...leadOf(r), status: r.status, assigneeId: r.assignee_id, followUpOn: r.follow_up_on })),
    total,
  };
}

/** The team, with what names them (the name given at `staff:create`, else the address). */
export function staffRows(db: Db) {
  return db.select({ id: members.id, email: members.email, onboarding: members.onboarding }).from(members).where(eq(members.role, 'staff'));
}

/** An active staff account with this id? */
export async function isActiveStaff(db: Db, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.id, id), eq(members.role, 'staff'), eq(members.disabled, false)))
    .limit(1);
  return row !== undefined;
}

/** The notes of these leads, oldest first. */
export function notesOf(db: Db, ids: string[]) {
  return ids.length > 0
    ? db.select().from(leadNotes).where(inArray(leadNotes.leadId, ids)).orderBy(asc(leadNotes.id))
    : Promise.resolve([]);
}

/** A lead's history, newest first. */
export function eventsOf(db: Db, id: string) {
  return db.select().from(leadEvents).where(eq(leadEvents.leadId, id)).orderBy(desc(leadEvents.id));
}

/** The answers mailed to a lead, newest first, with where their mail stands in the outbox. */
export function answersOf(db: Db, id: string) {
  return db
    .select({
      id: leadAnswers.id,
      authorId: leadAnswers.authorId,
      toAddress: leadAnswers.toAddress,
      subject: leadAnswers.subject,
      body: leadAnswers.body,
      createdAt: leadAnswers.createdAt,
      mailStatus: mailOutbox.status,
      mailAttempts: mailOutbox.attempts,
      mailError: mailOutbox.lastError,
      sentAt: mailOutbox.sentAt,
    })
    .from(leadAnswers)
    .leftJoin(mailOutbox, eq(mailOutbox.id, leadAnswers.mailId))
    .where(eq(leadAnswers.leadId, id))
    .orderBy(desc(leadAnswers.id));
}

/** A template written for prospects, or null. */
export async function prospectTemplate(db: Db, id: number) {
  const [row] = await db
    .select({ id: messageTemplates.id })
    .from(messageTemplates)
    .where(and(eq(messageTemplates.id, id), eq(messageTemplates.kind, 'prospect')))
    .limit(1);
  return row ?? null;
}

/** Pre-registrations' addresses and links, for the funnel. */
export function preRegistrationLinks(db: Db) {
  return db.select({ email: preSubscriptions.email, memberId: preSubscriptions.memberId }).from(preSubscriptions);
}

/** The member accounts (not staff) these pre-registrations became, each once. */
export async function accountsOfPreRegistrations(db: Db) {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      SELECT DISTINCT COALESCE(
        (SELECT m.id FROM members m WHERE m.id = p.member_id AND m.role = 'member'),
        (SELECT m.id FROM members m WHERE lower(m.email) = lower(p.email) AND m.role = 'member')
      ) AS id FROM pre_subscriptions p`),
  );
  const ids = rows.map((r) => r.id).filter((id): id is string => id !== null);
  return ids.length > 0 ? db.select().from(members).where(inArray(members.id, ids)) : [];
}

type FollowUpField = 'status' | 'assignee' | 'follow_up' | 'note' | 'answer';

/**
 * The lead's follow-up row, created if absent and locked, so that two colleagues' changes are
 * logged in the order they are applied.
 */
export async function lockFollowUp(tx: Transaction, lead: { id: string; kind: LeadKind }, now: Date) {
  await tx
    .insert(leadFollowUps)
    .values({ leadId: lead.id, kind: lead.kind, updatedAt: now })
    .onConflictDoNothing({ target: leadFollowUps.leadId });
  const [current] = await tx.select().from(leadFollowUps).where(eq(leadFollowUps.leadId, lead.id)).for('update');
  return current ?? null;
}

/** Writes the follow-up's new values. */
export async function updateFollowUp(
  tx: Transaction,
  id: string,
  change: { status?: string; assigneeId?: string | null; followUpOn?: string | null },
  now: Date,
) {
  await tx
    .update(leadFollowUps)
    .set({
      ...(change.status !== undefined ? { status: change.status } : {}),
      ...(change.assigneeId !== undefined ? { assigneeId: change.assigneeId } : {}),
      ...(change.followUpOn !== undefined ? { followUpOn: change.followUpOn } : {}),
      updatedAt: now,
    })
    .where(eq(leadFollowUps.leadId, id));
}

/** Appends rows to the lead's history. */
export async function appendEvents(
  tx: Transaction,
  id: string,
  actorId: string,
  events: { field: FollowUpField; from: string | null; to: string | null }[],
  now: Date,
) {
  if (events.length === 0) return;
  await tx
    .insert(leadEvents)
    .values(events.map((e) => ({ leadId: id, actorId, field: e.field, fromValue: e.from, toValue: e.to, createdAt: now })));
}

/** Appends a note. */
export async function insertNote(tx: Transaction, id: string, authorId: string, body: string, now: Date) {
  const [inserted] = await tx.insert(leadNotes).values({ leadId: id, authorId, body, createdAt: now }).returning({ id: leadNotes.id });
  return inserted ?? null;
}

/** Keeps an answer and the id of its mail. */
export async function insertAnswer(tx: Transaction, answer: typeof leadAnswers.$inferInsert) {
  const [inserted] = await tx.insert(leadAnswers).values(answer).returning({ id: leadAnswers.id });
  return inserted ?? null;
}
