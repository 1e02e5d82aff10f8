import { staffRoleOfCaller } from '#bff/auth/staff-policy.ts';
import { vValidator } from '@hono/valibot-validator';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { contactMessages, leadEvents, leadFollowUps, leadNotes } from '#bff/db/leads-schema.ts';
import { members, preSubscriptions } from '#bff/db/schema.ts';
import type { Db } from '#bff/db/database.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { jsonBody } from '#bff/http/validate.ts';
import { log } from '#bff/logger.ts';
import { recordOf } from '#bff/members/members.ts';
import { eraseProspect } from '#bff/privacy/leads-privacy.ts';
import type { LeadKind, LeadStatus } from '#machines/leads/labels.ts';
import { LeadChangeBody, LeadNoteBody, LeadsQuery, UNASSIGNED } from '#machines/leads/leads.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { topStateOf } from '#machines/onboarding/steps.ts';

const hook = (result: { success: boolean; issues?: readonly v.BaseIssue<unknown>[] }) => {
  if (!result.success) throw validationError(result.issues ?? [], 'Paramètres invalides');
};
const LeadIdParam = v.object({ id: v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide')) });

const NOT_FOUND = () => new ApiError(404, 'LEAD_NOT_FOUND', 'Prospect introuvable.');

/** A staff account's display name: the name given at `staff:create`, else the address. */
function staffDisplayName(row: { email: string; onboarding: unknown }): string {
  const name = (row.onboarding as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : row.email;
}

interface Lead {
  id: string;
  kind: LeadKind;
  name: string | null;
  email: string;
  createdAt: Date;
  /** The account created with the pre-registration's link (decision 127), if any. */
  memberId: string | null;
  /** Pre-registration: gender, age, town; contact: subject and message. */
  details: { gender?: string; age?: number; zipCode?: string; city?: string; subject?: string; message?: string };
}

/** The lead with this id, from either table. */
async function findLead(db: Db, id: string): Promise<Lead | null> {
  const [pre] = await db.select().from(preSubscriptions).where(eq(preSubscriptions.id, id)).limit(1);
  if (pre) return preLead(pre);
  const [contact] = await db.select().from(contactMessages).where(eq(contactMessages.id, id)).limit(1);
  return contact ? contactLead(contact) : null;
}

function preLead(row: typeof preSubscriptions.$inferSelect): Lead {
  return {
    id: row.id,
    kind: 'pre_subscription',
    name: null,
    email: row.email,
    createdAt: row.createdAt,
    memberId: row.memberId,
    details: { gender: row.gender, age: row.age, zipCode: row.zipCode, city: row.city },
  };
}

function contactLead(row: typeof contactMessages.$inferSelect): Lead {
  return {
    id: row.id,
    kind: 'contact',
    name: row.name,
    email: row.email,
    createdAt: row.createdAt,
    memberId: null,
    details: { subject: row.subject, message: row.message },
  };
}

/** Member accounts (not staff) by lower-case e-mail: a pre-registration with one is converted. */
async function accountsByEmail(db: Db, emails: string[]) {
  const lower = [...new Set(emails.map((e) => e.toLowerCase()))];
  if (lower.length === 0) return new Map<string, typeof members.$inferSelect>();
  const rows = await db
    .select()
    .from(members)
    .where(and(eq(members.role, 'member'), inArray(sql<string>`lower(${members.email})`, lower)));
  return new Map(rows.map((row) => [row.email.toLowerCase(), row]));
}

/** Member accounts by id: those created with a pre-registration's link (decision 127). */
async function accountsById(db: Db, ids: (string | null)[]) {
  const unique = [...new Set(ids.filter((id): id is string => id !== null))];
  if (unique.length === 0) return new Map<string, typeof members.$inferSelect>();
  const rows = await db
    .select()
    .from(members)
    .where(and(eq(members.role, 'member'), inArray(members.id, unique)));
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The account a pre-registration became: the one created with its link (even under another
 * address), else one opened with its address.
 */
async function accountsOfPres(db: Db, pres: { email: string; memberId: string | null }[]) {
  const [byEmail, byId] = await Promise.all([
    accountsByEmail(
      db,
      pres.map((p) => p.email),
    ),
    accountsById(
      db,
      pres.map((p) => p.memberId),
    ),
  ]);
  return (pre: { email: string; memberId: string | null }) =>
    (pre.memberId ? byId.get(pre.memberId) : undefined) ?? byEmail.get(pre.email.toLowerCase());
}

/**
 * The leads inbox (decision 112): pre-registrations and contact messages in one list, their
 * follow-up by staff (status, assignee, follow-up date, append-only notes), each change in
 * `lead_events` with who and when. Staff at aal2 only, checked before anything else.
 * A pre-registration whose address has a member account is converted: its status is `converti`
 * whatever was stored, and it links to the member's page.
 */
export function leadsRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(deps);

  /** Every lead with its follow-up, newest first. */
  async function allLeads() {
    const [pres, contacts, followUps, staffRows] = await Promise.all([
      db.select().from(preSubscriptions),
      db.select().from(contactMessages),
      db.select().from(leadFollowUps),
      db.select({ id: members.id, email: members.email, onboarding: members.onboarding }).from(members).where(eq(members.role, 'staff')),
    ]);
    const leads = [...pres.map(preLead), ...contacts.map(contactLead)].sort(
      (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || a.id.localeCompare(b.id),
    );
    const accountOf = await accountsOfPres(db, pres);
    const followUpOf = new Map(followUps.map((f) => [f.leadId, f]));
    const staffNames = new Map(staffRows.map((s) => [s.id, staffDisplayName(s)]));
    return {
      staffRows,
      staffNames,
      items: leads.map((lead) => {
        const followUp = followUpOf.get(lead.id);
        const account = lead.kind === 'pre_subscription' ? accountOf(lead) : undefined;
        const status: LeadStatus = account ? 'converti' : ((followUp?.status as LeadStatus | undefined) ?? 'nouveau');
        const assigneeId = followUp?.assigneeId ?? null;
        return {
          id: lead.id,
          kind: lead.kind,
          name: lead.name,
          email: lead.email,
          createdAt: lead.createdAt.toISOString(),
          details: lead.details,
          status,
          assignee: assigneeId ? { id: assigneeId, name: staffNames.get(assigneeId) ?? 'Compte supprimé' } : null,
          followUpOn: followUp?.followUpOn ?? null,
          member: account ? { id: account.id } : null,
        };
      }),
    };
  }

  return new Hono()
    .get('/dashboard/leads', staffOnly, vValidator('query', LeadsQuery, hook), async (c) => {
      const query = c.req.valid('query');
      const { items, staffRows } = await allLeads();
      const q = query.q ? query.q.toLowerCase() : '';
      // A counsellor sees the leads nobody has taken and their own (decision 206).
      const counsellor = staffRoleOfCaller(c.var.staff) === 'conseil' ? c.var.staff.id : null;
      const filtered = items.filter((lead) => {
        if (counsellor && lead.assignee !== null && lead.assignee.id !== counsellor) return false;
        if (query.status && lead.status !== query.status) return false;
        if (query.kind && lead.kind !== query.kind) return false;
        if (query.assignee === UNASSIGNED && lead.assignee !== null) return false;
        if (query.assignee && query.assignee !== UNASSIGNED && lead.assignee?.id !== query.assignee) return false;
        if (q) {
          const haystack = [lead.name, lead.email, lead.details.city, lead.details.zipCode, lead.details.subject, lead.details.message]
            .filter((s): s is string => typeof s === 'string')
            .join('\n')
            .toLowerCase();
          if (!haystack.includes(q)) return false;
        }
        return true;
      });
      const start = (query.page - 1) * query.perPage;
      const page = filtered.slice(start, start + query.perPage);
      // Notes of the page's leads, oldest first, with their author.
      const ids = page.map((l) => l.id);
      const notes =
        ids.length > 0 ? await db.select().from(leadNotes).where(inArray(leadNotes.leadId, ids)).orderBy(asc(leadNotes.id)) : [];
      const staffNames = new Map(staffRows.map((s) => [s.id, staffDisplayName(s)]));
      const notesOf = new Map<string, { id: number; body: string; at: string; author: string }[]>();
      for (const note of notes) {
        const list = notesOf.get(note.leadId) ?? [];
        list.push({
          id: note.id,
          body: note.body,
          at: note.createdAt.toISOString(),
          author: note.authorId ? (staffNames.get(note.authorId) ?? 'Compte supprimé') : 'Compte supprimé',
        });
        notesOf.set(note.leadId, list);
      }
      c.header('Cache-Control', 'private, no-store');
      return c.json(
        {
          items: page.map((lead) => ({ ...lead, notes: notesOf.get(lead.id) ?? [] })),
          total: filtered.length,
          page: query.page,
          perPage: query.perPage,
          pageCount: Math.max(1, Math.ceil(filtered.length / query.perPage)),
          staff: staffRows
            .map((s) => ({ id: s.id, name: staffDisplayName(s), self: s.id === c.var.staff.id }))
            .sort((a, b) => a.name.localeCompare(b.name, 'fr')),
        },
        200,
      );
    })
    .get('/dashboard/leads-funnel', staffOnly, async (c) => {
      // Prospects (distinct addresses that pre-registered) → accounts opened with that address or
      // with the pre-registration's link (decision 127) → active members among them.
      const pres = await db.select({ email: preSubscriptions.email, memberId: preSubscriptions.memberId }).from(preSubscriptions);
      const emails = [...new Set(pres.map((p) => p.email.toLowerCase()))];
      const accountOf = await accountsOfPres(db, pres);
      const accounts = new Map<string, typeof members.$inferSelect>();
      for (const pre of pres) {
        const account = accountOf(pre);
        if (account) accounts.set(account.id, account);
      }
      const now = deps.clock.now().getTime();
      let active = 0;
      for (const row of accounts.values()) if (topStateOf(stateFromRecord(recordOf(row), now)) === 'membre-actif') active += 1;
      c.header('Cache-Control', 'private, no-store');
      return c.json({ prospects: emails.length, accounts: accounts.size, activeMembers: active }, 200);
    })
    .get('/dashboard/leads/:id/history', staffOnly, vValidator('param', LeadIdParam, hook), async (c) => {
      const { id } = c.req.valid('param');
      if (!(await findLead(db, id))) throw NOT_FOUND();
      const [events, staffRows] = await Promise.all([
        db.select().from(leadEvents).where(eq(leadEvents.leadId, id)).orderBy(desc(leadEvents.id)),
        db.select({ id: members.id, email: members.email, onboarding: members.onboarding }).from(members).where(eq(members.role, 'staff')),
      ]);
      const staffNames = new Map(staffRows.map((s) => [s.id, staffDisplayName(s)]));
      c.header('Cache-Control', 'private, no-store');
      return c.json(
        {
          events: events.map((e) => ({
            id: e.id,
            at: e.createdAt.toISOString(),
            field: e.field,
            from: e.fromValue,
            to: e.toValue,
            actor: e.actorId ? (staffNames.get(e.actorId) ?? 'Compte supprimé') : 'Compte supprimé',
            // An assignee's id reads as their name.
            fromName: e.field === 'assignee' && e.fromValue ? (staffNames.get(e.fromValue) ?? 'Compte supprimé') : null,
            toName: e.field === 'assignee' && e.toValue ? (staffNames.get(e.toValue) ?? 'Compte supprimé') : null,
          })),
        },
        200,
      );
    })
    .patch('/dashboard/leads/:id', staffOnly, vValidator('param', LeadIdParam, hook), jsonBody(LeadChangeBody), async (c) => {
      const { id } = c.req.valid('param');
      const change = c.req.valid('json');
      const staff = c.var.staff;
      const lead = await findLead(db, id);
      if (!lead) throw NOT_FOUND();
      if (change.status !== undefined && lead.kind === 'pre_subscription') {
        const account = (await accountsOfPres(db, [lead]))(lead);
        if (account && change.status !== 'converti')
          throw new ApiError(
            409,
            'LEAD_CONVERTED',
            'Cette pré-inscription est devenue un compte de membre : son statut reste « Converti ».',
          );
      }
      if (change.assigneeId) {
        const [assignee] = await db
          .select({ id: members.id })
          .from(members)
          .where(and(eq(members.id, change.assigneeId), eq(members.role, 'staff'), eq(members.disabled, false)))
          .limit(1);
        if (!assignee)
          throw new ApiError(422, 'ASSIGNEE_NOT_STAFF', 'Cette personne ne fait pas partie de l’équipe (ou son compte est désactivé).');
      }
      const now = deps.clock.now();
      const changed = await db.transaction(async (tx) => {
        // Lock the lead's follow-up row (created if absent) so that two staff members' changes
        // are logged in the order they are applied.
        await tx
          .insert(leadFollowUps)
          .values({ leadId: id, kind: lead.kind, updatedAt: now })
          .onConflictDoNothing({ target: leadFollowUps.leadId });
        const [current] = await tx.select().from(leadFollowUps).where(eq(leadFollowUps.leadId, id)).for('update');
        if (!current) throw NOT_FOUND();
        const events: { field: 'status' | 'assignee' | 'follow_up'; from: string | null; to: string | null }[] = [];
        if (change.status !== undefined && change.status !== current.status)
          events.push({ field: 'status', from: current.status, to: change.status });
        if (change.assigneeId !== undefined && change.assigneeId !== current.assigneeId)
          events.push({ field: 'assignee', from: current.assigneeId, to: change.assigneeId });
        if (change.followUpOn !== undefined && change.followUpOn !== current.followUpOn)
          events.push({ field: 'follow_up', from: current.followUpOn, to: change.followUpOn });
        if (events.length === 0) return [];
        await tx
          .update(leadFollowUps)
          .set({
            ...(change.status !== undefined ? { status: change.status } : {}),
            ...(change.assigneeId !== undefined ? { assigneeId: change.assigneeId } : {}),
            ...(change.followUpOn !== undefined ? { followUpOn: change.followUpOn } : {}),
            updatedAt: now,
          })
          .where(eq(leadFollowUps.leadId, id));
        await tx
          .insert(leadEvents)
          .values(events.map((e) => ({ leadId: id, actorId: staff.id, field: e.field, fromValue: e.from, toValue: e.to, createdAt: now })));
        return events.map((e) => e.field);
      });
      if (changed.length > 0)
        log.info('prospect mis à jour', { reqId: c.get('requestId'), leadId: id, staffId: staff.id, fields: changed });
      return c.json({ ok: true as const, changed }, 200);
    })
    .post('/dashboard/leads/:id/notes', staffOnly, vValidator('param', LeadIdParam, hook), jsonBody(LeadNoteBody), async (c) => {
      const { id } = c.req.valid('param');
      const { body } = c.req.valid('json');
      const staff = c.var.staff;
      if (!(await findLead(db, id))) throw NOT_FOUND();
      const now = deps.clock.now();
      const note = await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(leadNotes)
          .values({ leadId: id, authorId: staff.id, body, createdAt: now })
          .returning({ id: leadNotes.id });
        await tx
          .insert(leadEvents)
          .values({ leadId: id, actorId: staff.id, field: 'note', fromValue: null, toValue: null, createdAt: now });
        return inserted;
      });
      if (!note) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Service momentanément indisponible, réessayez dans un instant.');
      log.info('note ajoutée à un prospect', { reqId: c.get('requestId'), leadId: id, staffId: staff.id });
      return c.json({ id: note.id, at: now.toISOString() }, 201);
    })
    .post('/dashboard/leads/:id/erase', staffOnly, vValidator('param', LeadIdParam, hook), async (c) => {
      // A prospect's erasure request (decision 157): everything the agency holds about the lead's
      // address goes, unless the address has an account (the member's own erasure covers it).
      const { id } = c.req.valid('param');
      const lead = await findLead(db, id);
      if (!lead) throw NOT_FOUND();
      const result = await eraseProspect(db, lead.email);
      if ('refused' in result)
        throw new ApiError(
          409,
          'LEAD_HAS_ACCOUNT',
          'Cette adresse est liée à un compte de membre : ses données s’effacent avec le compte, depuis « Mon profil » dans l’espace du membre.',
        );
      const erased = {
        contactMessages: result.erased.contact_messages ?? 0,
        preRegistrations: result.erased.pre_subscriptions ?? 0,
        notes: result.erased.lead_notes ?? 0,
        mails: (result.erased.mail_outbox ?? 0) + (result.erased.mailbox ?? 0),
      };
      // Who erased, when and how much; never the address.
      log.info('prospect effacé', { reqId: c.get('requestId'), leadId: id, staffId: c.var.staff.id, erased });
      return c.json({ ok: true as const, erased }, 200);
    });
}
