import { vValidator } from '@hono/valibot-validator';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { memberOnly as memberOnlyFor, requireCaller, staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { assertCounsels } from '#bff/auth/staff-policy.ts';
import { validationError } from '#bff/http/errors.ts';
import type { Limit } from '#bff/http/rate-limit.ts';
import { jsonBody } from '#bff/http/validate.ts';
import { log } from '#bff/logger.ts';
import { agencyMessageNotice, memberMessageNotice } from '#bff/mail/message-mails.ts';
import { createTemplate, deleteTemplate, fillTemplateFor, listTemplates, updateTemplate } from '#bff/messages/message-templates.ts';
import {
  markReadByMember,
  markReadByStaff,
  memberConversation,
  memberUnreadCount,
  messageView,
  searchMembers,
  staffConversations,
  staffUnread,
  sendMessage,
  sendStaffMessage,
} from '#bff/messages/messages.ts';
import { MessageInput, TemplateInput } from '#machines/messages/messages.ts';

/**
 * The routes of the two-way messages between a member and the agency and of the message templates
 * (issues 21 and 22, decision 121): validation, the session's side, then `bff/messages/`.
 */

/** A member may write at most this many messages an hour: enough to talk, too few to flood the agency's inbox. */
export const MEMBER_MESSAGES_PER_HOUR: Limit = { name: 'member-message', points: 20, durationSeconds: 60 * 60 };
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

export function messageRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(deps);
  const mailSite = () => ({ siteUrl: deps.config.publicSiteUrl, agency: deps.config.agency });

  const memberOnly = memberOnlyFor(deps);

  return (
    new Hono()
      // --- The member's side -------------------------------------------------------------------
      .get('/user/messages', async (c) => {
        const caller = await requireCaller(c, deps);
        // A member reads only their own conversation; staff have none.
        const rows = await memberConversation(db, caller.id);
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
        const message = await sendMessage(db, {
          now: deps.clock.now(),
          memberId: caller.id,
          authorId: caller.id,
          direction: 'to_agency',
          subject: subject || DEFAULT_MEMBER_SUBJECT,
          body,
          notice: () => agencyMessageNotice(mailSite(), deps.config.agencyEmail, caller.id),
        });
        deps.mailQueued();
        log.info('message d’un membre à l’agence', { reqId: c.get('requestId'), memberId: caller.id, messageId: message.id });
        c.header('Cache-Control', 'private, no-store');
        const { authorEmail: _, memberId: __, staffReadAt: ___, ...view } = messageView(message, null);
        return c.json(view, 201);
      })
      .get('/user/messages/unread', memberOnly, async (c) => {
        const unread = await memberUnreadCount(db, c.var.member.id);
        c.header('Cache-Control', 'private, no-store');
        return c.json({ unread }, 200);
      })
      .post('/user/messages/read', memberOnly, async (c) => {
        const marked = await markReadByMember(db, c.var.member.id, deps.clock.now());
        c.header('Cache-Control', 'private, no-store');
        return c.json({ marked, unread: 0 }, 200);
      })
      // --- The staff's side --------------------------------------------------------------------
      .post('/dashboard/members/:id/messages', staffOnly, jsonBody(MessageInput), async (c) => {
        const staff = c.var.staff;
        const id = param(uuidSchema, c.req.param('id'));
        const { subject, body } = c.req.valid('json');
        const message = await sendStaffMessage(db, id, {
          now: deps.clock.now(),
          authorId: staff.id,
          direction: 'to_member',
          subject: subject || DEFAULT_SUBJECT,
          body,
          notice: (recipient) => memberMessageNotice(mailSite(), { to: recipient.email, firstName: recipient.firstName }),
        });
        deps.mailQueued();
        return c.json(messageView(message, staff.email), 201);
      })
      .get('/dashboard/messages', staffOnly, vValidator('query', MessagesQuery, hook), async (c) => {
        const { memberId } = c.req.valid('query');
        // A counsellor reads the conversations of their members only (decision 206).
        if (memberId) await assertCounsels(db, c.var.staff, [memberId]);
        const answer = await staffConversations(db, c.var.staff, memberId);
        c.header('Cache-Control', 'private, no-store');
        return c.json(answer, 200);
      })
      .get('/dashboard/messages/unread', staffOnly, async (c) => {
        const answer = await staffUnread(db, c.var.staff);
        c.header('Cache-Control', 'private, no-store');
        return c.json(answer, 200);
      })
      .post('/dashboard/members/:id/messages/read', staffOnly, async (c) => {
        const id = param(uuidSchema, c.req.param('id'));
        return c.json({ marked: await markReadByStaff(db, id, deps.clock.now()) }, 200);
      })
      // The recipient combobox: a few members matching a name or an address, searched in SQL.
      .get('/dashboard/member-search', staffOnly, vValidator('query', SearchQuery, hook), async (c) => {
        const { q } = c.req.valid('query');
        const items = q === '' ? [] : await searchMembers(db, c.var.staff, q);
        c.header('Cache-Control', 'private, no-store');
        return c.json({ items }, 200);
      })
      // --- Templates ---------------------------------------------------------------------------
      .get('/dashboard/message-templates', staffOnly, async (c) => {
        const templates = await listTemplates(db);
        c.header('Cache-Control', 'private, no-store');
        return c.json({ templates }, 200);
      })
      .post('/dashboard/message-templates', staffOnly, jsonBody(TemplateInput), async (c) => {
        return c.json(await createTemplate(db, c.req.valid('json'), c.var.staff.id, deps.clock.now()), 201);
      })
      .put('/dashboard/message-templates/:id', staffOnly, jsonBody(TemplateInput), async (c) => {
        const id = param(templateIdSchema, c.req.param('id'));
        return c.json(await updateTemplate(db, id, c.req.valid('json'), deps.clock.now()), 200);
      })
      .delete('/dashboard/message-templates/:id', staffOnly, async (c) => {
        const id = param(templateIdSchema, c.req.param('id'));
        await deleteTemplate(db, id);
        return c.json({ deleted: true as const, id }, 200);
      })
      // A template filled for one member: what the message form receives when staff pick it.
      .get('/dashboard/message-templates/:id/fill', staffOnly, vValidator('query', FillQuery, hook), async (c) => {
        const id = param(templateIdSchema, c.req.param('id'));
        const { memberId } = c.req.valid('query');
        await assertCounsels(db, c.var.staff, [memberId]);
        const filled = await fillTemplateFor(db, id, memberId, deps.config.agency.legalName);
        c.header('Cache-Control', 'private, no-store');
        return c.json(filled, 200);
      })
  );
}
