import type { Caller } from '#bff/auth/caller.ts';
import { staffRoleOfCaller } from '#bff/auth/staff-policy.ts';
import type { Clock } from '#bff/clock.ts';
import type { Config } from '#bff/config.ts';
import type { Db } from '#bff/db/database.ts';
import { ApiError } from '#bff/http/errors.ts';
import {
  accountsOfPreRegistrations,
  answersOf,
  appendEvents,
  eventsOf,
  findLead,
  type InboxFilters,
  inboxPage,
  insertAnswer,
  insertNote,
  isActiveStaff,
  type LeadRow,
  lockFollowUp,
  notesOf,
  preRegistrationLinks,
  prospectTemplate,
  staffRows,
  updateFollowUp,
} from '#bff/leads/store/leads.ts';
import { enqueueMail } from '#bff/mail/outbox.ts';
import { recordOf } from '#bff/members/members.ts';
import { type AnswerDelivery, leadSubject, type LeadStatus } from '#machines/leads/labels.ts';
import type { LeadAnswer } from '#machines/leads/leads.ts';
import { fillTemplate } from '#machines/messages/messages.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { topStateOf } from '#machines/onboarding/steps.ts';

/**
 * The leads inbox's rules (decisions 112, 157, 206, 211): what a lead is and shows, who sees it,
 * how staff follow it up and answer it by mail. Storage is `store/leads.ts`; the routes validate.
 */

const LEAD_NOT_FOUND = () => new ApiError(404, 'LEAD_NOT_FOUND', 'Prospect introuvable.');
const DELETED = 'Compte supprimé';

/** A staff account's display name: the name given at `staff:create`, else the address. */
function staffDisplayName(row: { email: string; onboarding: unknown }): string {
  const name = (row.onboarding as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : row.email;
}

async function staffNames(db: Db) {
  const rows = await staffRows(db);
  const names = new Map(rows.map((s) => [s.id, staffDisplayName(s)]));
  return { rows, nameOf: (id: string | null) => (id ? (names.get(id) ?? DELETED) : DELETED) };
}

/** The lead, or a 404. */
export async function requireLead(db: Db, id: string): Promise<LeadRow> {
  const lead = await findLead(db, id);
  if (!lead) throw LEAD_NOT_FOUND();
  return lead;
}

/** One page of the inbox with the page's notes and the team; a counsellor's is narrowed (decision 206). */
export async function inbox(db: Db, staff: Caller, filters: InboxFilters) {
  const onlyFor = staffRoleOfCaller(staff) === 'conseil' ? staff.id : null;
  const [{ rows, total }, team] = await Promise.all([inboxPage(db, filters, onlyFor), staffNames(db)]);
  const notes = await notesOf(
    db,
    rows.map((r) => r.id),
  );
  const notesByLead = new Map<string, { id: number; body: string; at: string; author: string }[]>();
  for (const note of notes) {
    const list = notesByLead.get(note.leadId) ?? [];
    list.push({ id: note.id, body: note.body, at: note.createdAt.toISOString(), author: team.nameOf(note.authorId) });
    notesByLead.set(note.leadId, list);
  }
  return {
    items: rows.map((lead) => ({
      id: lead.id,
      kind: lead.kind,
      name: lead.name,
      email: lead.email,
      createdAt: lead.createdAt.toISOString(),
      subject: leadSubject({ kind: lead.kind, subject: lead.details.subject ?? null }),
      details: lead.details,
      status: lead.status as LeadStatus,
      assignee: lead.assigneeId ? { id: lead.assigneeId, name: team.nameOf(lead.assigneeId) } : null,
      followUpOn: lead.followUpOn,
      member: lead.memberId ? { id: lead.memberId } : null,
      notes: notesByLead.get(lead.id) ?? [],
    })),
    total,
    page: filters.page,
    perPage: filters.perPage,
    pageCount: Math.max(1, Math.ceil(total / filters.perPage)),
    staff: team.rows
      .map((s) => ({ id: s.id, name: staffDisplayName(s), self: s.id === staff.id }))
      .sort((a, b) => a.name.localeCompare(b.name, 'fr')),
  };
}

/**
 * Prospects (distinct addresses that pre-registered) → accounts opened with that address or with
 * the pre-registration's link (decision 127) → active members among them.
 */
export async function leadsFunnel(db: Db, now: Date) {
  const [pres, accounts] = await Promise.all([preRegistrationLinks(db), accountsOfPreRegistrations(db)]);
  const prospects = new Set(pres.map((p) => p.email.toLowerCase())).size;
  let active = 0;
  for (const row of accounts) if (topStateOf(stateFromRecord(recordOf(row), now.getTime())) === 'membre-actif') active += 1;
  return { prospects, accounts: accounts.length, activeMembers: active };
}

/** Where an answer's mail stands, from its outbox row. */
function deliveryOf(status: string | null, attempts: number | null, error: string | null): AnswerDelivery {
  if (status === 'sent') return 'sent';
  if (status === 'failed') return 'failed';
  if (status === 'dropped') return 'dropped';
  return error && (attempts ?? 0) > 0 ? 'retrying' : 'pending';
}

/** A lead's history, newest first, and the answers mailed to it, names in words. */
export async function leadHistory(db: Db, id: string) {
  await requireLead(db, id);
  const [events, answers, team] = await Promise.all([eventsOf(db, id), answersOf(db, id), staffNames(db)]);
  return {
    events: events.map((e) => ({
      id: e.id,
      at: e.createdAt.toISOString(),
      field: e.field,
      from: e.fromValue,
      to: e.toValue,
      actor: team.nameOf(e.actorId),
      // An assignee's id reads as their name.
      fromName: e.field === 'assignee' && e.fromValue ? team.nameOf(e.fromValue) : null,
      toName: e.field === 'assignee' && e.toValue ? team.nameOf(e.toValue) : null,
    })),
    answers: answers.map((a) => ({
      id: a.id,
      at: a.createdAt.toISOString(),
      author: team.nameOf(a.authorId),
      to: a.toAddress,
      subject: a.subject,
      body: a.body,
      delivery: deliveryOf(a.mailStatus, a.mailAttempts, a.mailError),
      sentAt: a.sentAt ? a.sentAt.toISOString() : null,
    })),
  };
}

const CONVERTED = () =>
  new ApiError(409, 'LEAD_CONVERTED', 'Cette pré-inscription est devenue un compte de membre : son statut reste « Converti ».');

/** Status, assignee and follow-up date, each change in the history; returns the fields changed. */
export async function changeLead(
  db: Db,
  staff: Caller,
  id: string,
  change: { status?: LeadStatus; assigneeId?: string | null; followUpOn?: string | null },
  now: Date,
) {
  const lead = await requireLead(db, id);
  if (change.status !== undefined && lead.memberId && change.status !== 'converti') throw CONVERTED();
  if (change.assigneeId && !(await isActiveStaff(db, change.assigneeId)))
    throw new ApiError(422, 'ASSIGNEE_NOT_STAFF', 'Cette personne ne fait pas partie de l’équipe (ou son compte est désactivé).');
  return db.transaction(async (tx) => {
    const current = await lockFollowUp(tx, lead, now);
    if (!current) throw LEAD_NOT_FOUND();
    const events: { field: 'status' | 'assignee' | 'follow_up'; from: string | null; to: string | null }[] = [];
    if (change.status !== undefined && change.status !== current.status)
      events.push({ field: 'status', from: current.status, to: change.status });
    if (change.assigneeId !== undefined && change.assigneeId !== current.assigneeId)
      events.push({ field: 'assignee', from: current.assigneeId, to: change.assigneeId });
    if (change.followUpOn !== undefined && change.followUpOn !== current.followUpOn)
      events.push({ field: 'follow_up', from: current.followUpOn, to: change.followUpOn });
    if (events.length === 0) return [];
    await updateFollowUp(tx, id, change, now);
    await appendEvents(tx, id, staff.id, events, now);
    return events.map((e) => e.field);
  });
}

/** An append-only note, and its line in the history. */
export async function addLeadNote(db: Db, staff: Caller, id: string, body: string, now: Date) {
  await requireLead(db, id);
  const note = await db.transaction(async (tx) => {
    const inserted = await insertNote(tx, id, staff.id, body, now);
    await appendEvents(tx, id, staff.id, [{ field: 'note', from: null, to: null }], now);
    return inserted;
  });
  if (!note) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Service momentanément indisponible, réessayez dans un instant.');
  return note;
}

/** What an answer to this lead becomes: placeholders filled, the agency signing, who receives it. */
export function composeAnswer(config: Pick<Config, 'agency' | 'agencyEmail' | 'publicSiteUrl'>, lead: LeadRow, answer: LeadAnswer) {
  // A contact message's name as the visitor typed it; a pre-registration gave none.
  const values = { prenom: lead.name ?? '', nom: '', agence: config.agency.legalName };
  const body = fillTemplate(answer.body, values);
  return {
    to: lead.email,
    replyTo: config.agencyEmail,
    subject: fillTemplate(answer.subject, values),
    body,
    text: `${body}\n\n—\n${config.agency.legalName}\n${config.publicSiteUrl}\nPour nous répondre, répondez simplement à cet e-mail.`,
  };
}

/**
 * Mails an answer to the lead (decision 211), in one transaction: the mail in the outbox (from the
 * agency's sending address, Reply-To the agency; the dispatcher retries a failure), the answer kept
 * with who and when, a line in the history; a new lead becomes « Contacté » and, if nobody had
 * taken it, the sender's.
 */
export async function answerLead(
  deps: { database: { db: Db }; config: Config; clock: Clock },
  staff: Caller,
  id: string,
  answer: LeadAnswer,
) {
  const db = deps.database.db;
  const lead = await requireLead(db, id);
  if (answer.templateId && !(await prospectTemplate(db, answer.templateId)))
    throw new ApiError(422, 'TEMPLATE_NOT_FOUND', 'Ce modèle n’existe plus ou n’est pas un modèle pour les prospects.', {
      issues: [{ path: 'templateId', message: 'Modèle introuvable.' }],
    });
  const mail = composeAnswer(deps.config, lead, answer);
  const now = deps.clock.now();
  return db.transaction(async (tx) => {
    const current = await lockFollowUp(tx, lead, now);
    if (!current) throw LEAD_NOT_FOUND();
    // Taken by someone else since the route's check: refused as the route would have.
    if (current.assigneeId && current.assigneeId !== staff.id && staffRoleOfCaller(staff) === 'conseil')
      throw new ApiError(403, 'NOT_YOUR_LEAD', 'Ce contact est suivi par un autre membre de l’équipe.');
    const mailId = await enqueueMail(tx, {
      to: mail.to,
      replyTo: mail.replyTo,
      subject: mail.subject,
      text: mail.text,
      kind: 'lead-answer',
    });
    const inserted = await insertAnswer(tx, {
      leadId: id,
      authorId: staff.id,
      templateId: answer.templateId ?? null,
      toAddress: mail.to,
      subject: mail.subject,
      body: mail.body,
      mailId,
      createdAt: now,
    });
    const events: { field: 'answer' | 'status' | 'assignee'; from: string | null; to: string | null }[] = [
      { field: 'answer', from: null, to: mail.subject },
    ];
    const change: { status?: string; assigneeId?: string } = {};
    if (!lead.memberId && current.status === 'nouveau') {
      change.status = 'contacte';
      events.push({ field: 'status', from: current.status, to: 'contacte' });
    }
    if (current.assigneeId === null) {
      change.assigneeId = staff.id;
      events.push({ field: 'assignee', from: null, to: staff.id });
    }
    await updateFollowUp(tx, id, change, now);
    await appendEvents(tx, id, staff.id, events, now);
    return { id: inserted?.id ?? 0, at: now.toISOString(), changed: events.map((e) => e.field).filter((f) => f !== 'answer') };
  });
}
