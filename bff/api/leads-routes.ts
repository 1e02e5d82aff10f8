import { vValidator } from '@hono/valibot-validator';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { LIMITS } from '#bff/http/rate-limit.ts';
import { jsonBody } from '#bff/http/validate.ts';
import { addLeadNote, answerLead, changeLead, composeAnswer, inbox, leadHistory, leadsFunnel, requireLead } from '#bff/leads/leads.ts';
import { log } from '#bff/logger.ts';
import { eraseProspect } from '#bff/privacy/leads-privacy.ts';
import { LeadAnswerBody, LeadChangeBody, LeadNoteBody, LeadsQuery } from '#machines/leads/leads.ts';

const hook = (result: { success: boolean; issues?: readonly v.BaseIssue<unknown>[] }) => {
  if (!result.success) throw validationError(result.issues ?? [], 'Paramètres invalides');
};
const LeadIdParam = v.object({ id: v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide')) });

/**
 * The leads inbox's routes (decisions 112, 157, 206, 211): pre-registrations and contact messages
 * in one list, their follow-up by staff (status, assignee, follow-up date, append-only notes, the
 * answers mailed from here), each change in the history with who and when. Staff at aal2 only,
 * checked before anything else; the rules are in `bff/leads/leads.ts`, the SQL in its store.
 */
export function leadsRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(deps);

  return new Hono()
    .get('/dashboard/leads', staffOnly, vValidator('query', LeadsQuery, hook), async (c) => {
      const answer = await inbox(db, c.var.staff, c.req.valid('query'));
      c.header('Cache-Control', 'private, no-store');
      return c.json(answer, 200);
    })
    .get('/dashboard/leads-funnel', staffOnly, async (c) => {
      c.header('Cache-Control', 'private, no-store');
      return c.json(await leadsFunnel(db, deps.clock.now()), 200);
    })
    .get('/dashboard/leads/:id/history', staffOnly, vValidator('param', LeadIdParam, hook), async (c) => {
      const history = await leadHistory(db, c.req.valid('param').id);
      c.header('Cache-Control', 'private, no-store');
      return c.json(history, 200);
    })
    .patch('/dashboard/leads/:id', staffOnly, vValidator('param', LeadIdParam, hook), jsonBody(LeadChangeBody), async (c) => {
      const { id } = c.req.valid('param');
      const staff = c.var.staff;
      const changed = await changeLead(db, staff, id, c.req.valid('json'), deps.clock.now());
      if (changed.length > 0)
        log.info('prospect mis à jour', { reqId: c.get('requestId'), leadId: id, staffId: staff.id, fields: changed });
      return c.json({ ok: true as const, changed }, 200);
    })
    .post('/dashboard/leads/:id/notes', staffOnly, vValidator('param', LeadIdParam, hook), jsonBody(LeadNoteBody), async (c) => {
      const { id } = c.req.valid('param');
      const now = deps.clock.now();
      const note = await addLeadNote(db, c.var.staff, id, c.req.valid('json').body, now);
      log.info('note ajoutée à un prospect', { reqId: c.get('requestId'), leadId: id, staffId: c.var.staff.id });
      return c.json({ id: note.id, at: now.toISOString() }, 201);
    })
    .post(
      '/dashboard/leads/:id/answers/preview',
      staffOnly,
      vValidator('param', LeadIdParam, hook),
      jsonBody(LeadAnswerBody),
      async (c) => {
        // Exactly what « Envoyer » would send: the same composition, nothing written.
        const lead = await requireLead(db, c.req.valid('param').id);
        const mail = composeAnswer(deps.config, lead, c.req.valid('json'));
        c.header('Cache-Control', 'private, no-store');
        return c.json({ to: mail.to, from: deps.config.mailFrom, replyTo: mail.replyTo, subject: mail.subject, text: mail.text }, 200);
      },
    )
    .post('/dashboard/leads/:id/answers', staffOnly, vValidator('param', LeadIdParam, hook), jsonBody(LeadAnswerBody), async (c) => {
      const { id } = c.req.valid('param');
      const staff = c.var.staff;
      // A colleague sends a bounded number of answers (a mistake or a stolen session cannot spam).
      await deps.rateLimit(LIMITS.leadAnswerPerStaff, staff.id);
      const sent = await answerLead(deps, staff, id, c.req.valid('json'));
      deps.mailQueued();
      // Who answered which lead and when; never the address nor the text.
      log.info('réponse envoyée à un prospect', { reqId: c.get('requestId'), leadId: id, staffId: staff.id, changed: sent.changed });
      return c.json({ ok: true as const, ...sent }, 201);
    })
    .post('/dashboard/leads/:id/erase', staffOnly, vValidator('param', LeadIdParam, hook), async (c) => {
      // A prospect's erasure request (decision 157): everything the agency holds about the lead's
      // address goes, unless the address has an account (the member's own erasure covers it).
      const { id } = c.req.valid('param');
      const lead = await requireLead(db, id);
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
