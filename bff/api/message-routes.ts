import { assertCounsels, counselledOnly } from '#bff/auth/staff-policy.ts';
import { vValidator } from '@hono/valibot-validator';
import { and, asc, count, desc, eq, inArray, isNull, max, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { memberOnly as memberOnlyFor, requireCaller, staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { directMessages, messageTemplates } from '#bff/db/messages-schema.ts';
import { members } from '#bff/db/schema.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import type { Limit } from '#bff/http/rate-limit.ts';
import { jsonBody } from '#bff/http/validate.ts';
import { log } from '#bff/logger.ts';
import { agencyMessageNotice, memberMessageNotice } from '#bff/mail/message-mails.ts';
import { enqueueMailOnce, type Executor } from '#bff/mail/outbox.ts';
import { fillTemplate, MessageInput, TemplateInput } from '#machines/messages/messages.ts';

/**
 * Two-way messages between a member and the agency, unread counts on both sides, the recipient
 * search and the message templates (issues 21 and 22, decision 121).
 *
 * - A member reads and writes only their own conversation (the id comes from the session) and
 *   marks read only what the agency wrote to them; staff (aal2) read every conversation and mark
 *   read only what members wrote.
 * - Each message queues one notice through the outbox (de-duplicated by the message id), never
 *   its content (GDPR art. 9): to the member, or to the agency's address.
 */

/** A member may write at most this many messages an hour: enough to talk, too few to flood the agency's inbox. */
export const MEMBER_MESSAGES_PER_HOUR: Limit = { name: 'member-message', points: 20, durationSeconds: 60 * 60 };
/** At most this many members in an answer of the recipient search (the combobox shows them all). */
export const MEMBER_SEARCH_LIMIT = 8;
/** The newest messages a conversation answers (older ones stay stored). */
const CONVERSATION_LIMIT = 200;
const DEFAULT_SUBJECT = 'Un message de l’agence';
const DEFAULT_MEMBER_SUBJECT = 'Message d’un membre';

const uuidSchema = v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide'));
const templateIdSchema = v.pipe(
  v.string('Identifiant invalide'),
  v.regex(/^\d{1,15}$/, 'Identifiant invalide'),
  v.transform(Number),
  v.minValue(1, 'Identifiant invalide'),
);
const MessagesQuery = v.object({ memberId: v.optional(uuidSchema) });
const SearchQuery = v.object({
  q: v.optional(v.pipe(v.string('Recherche invalide'), v.trim(), v.maxLength(100, 'Recherche trop longue (100 caractères au plus)')), ''),
});
const FillQuery = v.object({ memberId: uuidSchema });

const hook = (result: { success: boolean; issues?: readonly v.BaseIssue<unknown>[] }) => {
  if (!result.success) throw validationError(result.issues ?? [], 'Données invalides');
};

function param<S extends v.GenericSchema>(schema: S, value: string | undefined): v.InferOutput<S> {
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) throw validationError(parsed.issues, 'Paramètres invalides');
  return parsed.output;
}

function namesOf(profile: unknown): { firstName: string; lastName: string } {
  const p = (profile ?? {}) as { firstName?: unknown; lastName?: unknown };
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  return { firstName: text(p.firstName), lastName: text(p.lastName) };
}

function displayName(profile: unknown): string | null {
  const { firstName, lastName } = namesOf(profile);
  return [firstName, lastName].filter(Boolean).join(' ') || null;
}

type MessageRow = typeof directMessages.$inferSelect;

function messageView(row: MessageRow, authorEmail: string | null) {
  return {
    id: row.id,
    memberId: row.memberId,
    direction: row.direction,
    subject: row.subject,
    body: row.body,
    authorEmail,
    createdAt: row.createdAt.toISOString(),
    memberReadAt: row.memberReadAt?.toISOString() ?? null,
    staffReadAt: row.staffReadAt?.toISOString() ?? null,
  };
}

const TEMPLATE_NOT_FOUND = () => new ApiError(404, 'TEMPLATE_NOT_FOUND', 'Modèle introuvable.');
const MEMBER_NOT_FOUND = () => new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
const TITLE_TAKEN = () =>
  new ApiError(409, 'TEMPLATE_TITLE_TAKEN', 'Un modèle porte déjà ce titre.', {
    issues: [{ path: 'title', message: 'Un modèle porte déjà ce titre.' }],
  });

function templateView(row: typeof messageTemplates.$inferSelect) {
  return {
    id: row.id,
    title: row.title,
    subject: row.subject,
    body: row.body,
    kind: row.kind,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A unique violation (the template title), from node-postgres or PGlite, wrapped or not by drizzle. */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth += 1)
    if ((e as { code?: unknown }).code === '23505') return true;
  return false;
}

export function messageRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(deps);
  const mailSite = () => ({ siteUrl: deps.config.publicSiteUrl, agency: deps.config.agency });

  const memberOnly = memberOnlyFor(deps);

  /** Writes one message and its notice (once per message) in one transaction. */
  async function write(
    tx: Executor,
    input: {
      memberId: string;
      authorId: string;
      direction: 'to_member' | 'to_agency';
      subject: string;
      body: string;
      notice: (id: number) => Parameters<typeof enqueueMailOnce>[1];
    },
  ): Promise<MessageRow> {
    const now = deps.clock.now();
    const [inserted] = await tx
      .insert(directMessages)
      .values({
        memberId: input.memberId,
        authorId: input.authorId,
        direction: input.direction,
        subject: input.subject,
        body: input.body,
        createdAt: now,
        // The author's side has read what it wrote.
        ...(input.direction === 'to_member' ? { staffReadAt: now } : { memberReadAt: now }),
      })
      .returning();
    if (!inserted) throw new Error('direct_messages insert returned nothing');
    const mailId = await enqueueMailOnce(tx, input.notice(inserted.id), `message-notice:${inserted.id}`);
    const [row] = await tx.update(directMessages).set({ mailId }).where(eq(directMessages.id, inserted.id)).returning();
    return row ?? inserted;
  }

  return (
    new Hono()
      // --- The member's side -------------------------------------------------------------------
      .get('/user/messages', async (c) => {
        const caller = await requireCaller(c, deps);
        // A member reads only their own conversation; staff have none.
        const rows = await db
          .select()
          .from(directMessages)
          .where(eq(directMessages.memberId, caller.id))
          .orderBy(desc(directMessages.id))
          .limit(CONVERSATION_LIMIT);
        c.header('Cache-Control', 'private, no-store');
        return c.json(
          {
            messages: rows.map((r) => {
              const { authorEmail: _, memberId: __, staffReadAt: ___, ...rest } = messageView(r, null);
              return rest;
            }),
          },
          200,
        );
      })
      .post('/user/messages', memberOnly, jsonBody(MessageInput), async (c) => {
        const caller = c.var.member;
        const { subject, body } = c.req.valid('json');
        await deps.rateLimit(MEMBER_MESSAGES_PER_HOUR, caller.id);
        const message = await db.transaction((tx) =>
          write(tx, {
            memberId: caller.id,
            authorId: caller.id,
            direction: 'to_agency',
            subject: subject || DEFAULT_MEMBER_SUBJECT,
            body,
            notice: () => agencyMessageNotice(mailSite(), deps.config.agencyEmail, caller.id),
          }),
        );
        deps.mailQueued();
        log.info('message d’un membre à l’agence', { reqId: c.get('requestId'), memberId: caller.id, messageId: message.id });
        c.header('Cache-Control', 'private, no-store');
        const { authorEmail: _, memberId: __, staffReadAt: ___, ...view } = messageView(message, null);
        return c.json(view, 201);
      })
      .get('/user/messages/unread', memberOnly, async (c) => {
        const caller = c.var.member;
        const [row] = await db
          .select({ n: count() })
          .from(directMessages)
          .where(
            and(eq(directMessages.memberId, caller.id), eq(directMessages.direction, 'to_member'), isNull(directMessages.memberReadAt)),
          );
        c.header('Cache-Control', 'private, no-store');
        return c.json({ unread: row?.n ?? 0 }, 200);
      })
      .post('/user/messages/read', memberOnly, async (c) => {
        const caller = c.var.member;
        // Only what the agency wrote to this member: never another member's, never the agency's side.
        const marked = await db
          .update(directMessages)
          .set({ memberReadAt: deps.clock.now() })
          .where(
            and(eq(directMessages.memberId, caller.id), eq(directMessages.direction, 'to_member'), isNull(directMessages.memberReadAt)),
          )
          .returning({ id: directMessages.id });
        c.header('Cache-Control', 'private, no-store');
        return c.json({ marked: marked.length, unread: 0 }, 200);
      })
      // --- The staff's side --------------------------------------------------------------------
      .post('/dashboard/members/:id/messages', staffOnly, jsonBody(MessageInput), async (c) => {
        const staff = c.var.staff;
        const id = param(uuidSchema, c.req.param('id'));
        const { subject, body } = c.req.valid('json');
        const message = await db.transaction(async (tx) => {
          const [row] = await tx.select().from(members).where(eq(members.id, id)).limit(1);
          if (row?.role !== 'member') throw MEMBER_NOT_FOUND();
          return write(tx, {
            memberId: row.id,
            authorId: staff.id,
            direction: 'to_member',
            subject: subject || DEFAULT_SUBJECT,
            body,
            notice: () => memberMessageNotice(mailSite(), { to: row.email, firstName: namesOf(row.profile).firstName || null }),
          });
        });
        deps.mailQueued();
        return c.json(messageView(message, staff.email), 201);
      })
      .get('/dashboard/messages', staffOnly, vValidator('query', MessagesQuery, hook), async (c) => {
        const { memberId } = c.req.valid('query');
        // A counsellor reads the conversations of their members only (decision 206).
        if (memberId) await assertCounsels(db, c.var.staff, [memberId]);
        const rows = await db
          .select({ message: directMessages, memberEmail: members.email })
          .from(directMessages)
          .innerJoin(members, eq(members.id, directMessages.memberId))
          .where(and(memberId ? eq(directMessages.memberId, memberId) : undefined, counselledOnly(c.var.staff, directMessages.memberId)))
          .orderBy(desc(directMessages.id))
          .limit(CONVERSATION_LIMIT);
        const authorIds = [...new Set(rows.map((r) => r.message.authorId).filter((a): a is string => a !== null))];
        const authors =
          authorIds.length > 0
            ? await db.select({ id: members.id, email: members.email }).from(members).where(inArray(members.id, authorIds))
            : [];
        const emailOf = new Map(authors.map((a) => [a.id, a.email]));
        // The member of the conversation (the page names them even before a first message).
        const [who] = memberId
          ? await db
              .select({ id: members.id, email: members.email, profile: members.profile, role: members.role })
              .from(members)
              .where(eq(members.id, memberId))
              .limit(1)
          : [];
        c.header('Cache-Control', 'private, no-store');
        return c.json(
          {
            member: who?.role === 'member' ? { id: who.id, email: who.email, name: displayName(who.profile) } : null,
            messages: rows.map((r) => ({
              ...messageView(r.message, r.message.authorId ? (emailOf.get(r.message.authorId) ?? null) : null),
              memberEmail: r.memberEmail,
            })),
          },
          200,
        );
      })
      .get('/dashboard/messages/unread', staffOnly, async (c) => {
        const rows = await db
          .select({
            memberId: directMessages.memberId,
            email: members.email,
            profile: members.profile,
            unread: count(),
            lastAt: max(directMessages.createdAt),
          })
          .from(directMessages)
          .innerJoin(members, eq(members.id, directMessages.memberId))
          .where(
            and(
              eq(directMessages.direction, 'to_agency'),
              isNull(directMessages.staffReadAt),
              counselledOnly(c.var.staff, directMessages.memberId),
            ),
          )
          .groupBy(directMessages.memberId, members.email, members.profile)
          .orderBy(desc(max(directMessages.createdAt)));
        c.header('Cache-Control', 'private, no-store');
        return c.json(
          {
            total: rows.reduce((sum, r) => sum + r.unread, 0),
            members: rows.map((r) => ({
              memberId: r.memberId,
              email: r.email,
              name: displayName(r.profile),
              unread: r.unread,
              lastAt: r.lastAt ? new Date(r.lastAt).toISOString() : null,
            })),
          },
          200,
        );
      })
      .post('/dashboard/members/:id/messages/read', staffOnly, async (c) => {
        const id = param(uuidSchema, c.req.param('id'));
        const [row] = await db.select({ role: members.role }).from(members).where(eq(members.id, id)).limit(1);
        if (row?.role !== 'member') throw MEMBER_NOT_FOUND();
        // Only what this member wrote to the agency.
        const marked = await db
          .update(directMessages)
          .set({ staffReadAt: deps.clock.now() })
          .where(and(eq(directMessages.memberId, id), eq(directMessages.direction, 'to_agency'), isNull(directMessages.staffReadAt)))
          .returning({ id: directMessages.id });
        return c.json({ marked: marked.length }, 200);
      })
      // The recipient combobox: a few members matching a name or an address, searched in SQL.
      .get('/dashboard/member-search', staffOnly, vValidator('query', SearchQuery, hook), async (c) => {
        const { q } = c.req.valid('query');
        if (q === '') {
          c.header('Cache-Control', 'private, no-store');
          return c.json({ items: [] }, 200);
        }
        const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
        const rows = await db
          .select({ id: members.id, email: members.email, profile: members.profile })
          .from(members)
          .where(
            and(
              eq(members.role, 'member'),
              counselledOnly(c.var.staff, members.id),
              sql`(lower(${members.email}) LIKE ${pattern} OR lower(coalesce(${members.profile}->>'firstName', '') || ' ' || coalesce(${members.profile}->>'lastName', '')) LIKE ${pattern} OR lower(coalesce(${members.profile}->>'lastName', '') || ' ' || coalesce(${members.profile}->>'firstName', '')) LIKE ${pattern})`,
            ),
          )
          .orderBy(asc(sql`lower(${members.email})`))
          .limit(MEMBER_SEARCH_LIMIT);
        c.header('Cache-Control', 'private, no-store');
        return c.json({ items: rows.map((r) => ({ id: r.id, email: r.email, name: displayName(r.profile) })) }, 200);
      })
      // --- Templates ---------------------------------------------------------------------------
      .get('/dashboard/message-templates', staffOnly, async (c) => {
        const rows = await db
          .select()
          .from(messageTemplates)
          .orderBy(asc(sql`lower(${messageTemplates.title})`), asc(messageTemplates.id));
        c.header('Cache-Control', 'private, no-store');
        return c.json({ templates: rows.map(templateView) }, 200);
      })
      .post('/dashboard/message-templates', staffOnly, jsonBody(TemplateInput), async (c) => {
        const input = c.req.valid('json');
        const now = deps.clock.now();
        try {
          const [row] = await db
            .insert(messageTemplates)
            .values({ ...input, authorId: c.var.staff.id, createdAt: now, updatedAt: now })
            .returning();
          if (!row) throw new Error('message_templates insert returned nothing');
          return c.json(templateView(row), 201);
        } catch (error) {
          if (isUniqueViolation(error)) throw TITLE_TAKEN();
          throw error;
        }
      })
      .put('/dashboard/message-templates/:id', staffOnly, jsonBody(TemplateInput), async (c) => {
        const id = param(templateIdSchema, c.req.param('id'));
        const input = c.req.valid('json');
        try {
          const [row] = await db
            .update(messageTemplates)
            .set({ ...input, updatedAt: deps.clock.now() })
            .where(eq(messageTemplates.id, id))
            .returning();
          if (!row) throw TEMPLATE_NOT_FOUND();
          return c.json(templateView(row), 200);
        } catch (error) {
          if (isUniqueViolation(error)) throw TITLE_TAKEN();
          throw error;
        }
      })
      .delete('/dashboard/message-templates/:id', staffOnly, async (c) => {
        const id = param(templateIdSchema, c.req.param('id'));
        const deleted = await db.delete(messageTemplates).where(eq(messageTemplates.id, id)).returning({ id: messageTemplates.id });
        if (deleted.length === 0) throw TEMPLATE_NOT_FOUND();
        return c.json({ deleted: true as const, id }, 200);
      })
      // A template filled for one member: what the message form receives when staff pick it.
      .get('/dashboard/message-templates/:id/fill', staffOnly, vValidator('query', FillQuery, hook), async (c) => {
        const id = param(templateIdSchema, c.req.param('id'));
        const { memberId } = c.req.valid('query');
        await assertCounsels(db, c.var.staff, [memberId]);
        const [[template], [member]] = await Promise.all([
          db.select().from(messageTemplates).where(eq(messageTemplates.id, id)).limit(1),
          db.select({ role: members.role, profile: members.profile }).from(members).where(eq(members.id, memberId)).limit(1),
        ]);
        if (!template) throw TEMPLATE_NOT_FOUND();
        if (member?.role !== 'member') throw MEMBER_NOT_FOUND();
        const { firstName, lastName } = namesOf(member.profile);
        const values = { prenom: firstName, nom: lastName, agence: deps.config.agency.legalName };
        c.header('Cache-Control', 'private, no-store');
        return c.json({ subject: fillTemplate(template.subject, values), body: fillTemplate(template.body, values) }, 200);
      })
  );
}
