import { counselledIds } from '#bff/auth/staff-policy.ts';
import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { type Caller, requireMember, staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { ApiError } from '#bff/http/errors.ts';
import { readJson } from '#bff/http/validate.ts';
import { log } from '#bff/logger.ts';
import { presentationOf, presentationsWaiting, reviewPresentation, savePresentation } from '#bff/matching/presentation.ts';
import { memberRoleById } from '#bff/members/member-rows.ts';
import { changeRequestAnsweredMail } from '#bff/mail/change-request-mails.ts';
import { prefillOf } from '#bff/members/signup-prefill.ts';
import { answersOf, changeRequestsOf, decideChangeRequest, editOwnAnswers, requestChange } from '#bff/onboarding/member-answers.ts';

const MEMBER_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const REQUEST_ID = /^[1-9]\d{0,15}$/;

/** The profile's first name, if any, for a mail's greeting. */
function firstNameOf(profile: unknown): string | null {
  const value = (profile as { firstName?: unknown } | null)?.firstName;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * « Mon profil » (issue 21, decision 123): the member's own answers (`/user/answers`: read, edit
 * before signature), their change requests after signature (`/user/change-requests`), and the
 * staff's side (`/dashboard/members/:id/change-requests`, `/dashboard/change-requests/:requestId`).
 * The member is always the session's: no member id is ever taken from the request.
 */
export function memberAnswersRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(deps);

  const memberCaller = (c: Context): Promise<Caller> => requireMember(c, deps);

  return (
    new Hono()
      .get('/user/prefill', async (c) => {
        // Step 1 starts with what the pre-registration linked to this account gave (decision 127).
        const caller = await memberCaller(c);
        c.header('Cache-Control', 'private, no-store');
        return c.json({ profile: await prefillOf(db, caller.id) }, 200);
      })
      .get('/user/answers', async (c) => {
        const caller = await memberCaller(c);
        c.header('Cache-Control', 'private, no-store');
        return c.json(await answersOf(db, caller.member), 200);
      })
      .put('/user/answers', async (c) => {
        const caller = await memberCaller(c);
        const body = await readJson(c, v.unknown());
        const outcome = await editOwnAnswers(db, caller.id, body, deps.clock.now());
        if (outcome.changed.length > 0)
          log.info('réponses modifiées par le membre', { reqId: c.get('requestId'), memberId: caller.id, section: outcome.section });
        c.header('Cache-Control', 'private, no-store');
        return c.json(outcome, 200);
      })
      // The member's short presentation (decision 128): their own only, from the session.
      .get('/user/presentation', async (c) => {
        const caller = await memberCaller(c);
        c.header('Cache-Control', 'private, no-store');
        return c.json({ presentation: await presentationOf(db, caller.id) }, 200);
      })
      .put('/user/presentation', async (c) => {
        const caller = await memberCaller(c);
        const body = await readJson(c, v.unknown());
        const presentation = await savePresentation(db, caller.id, body, deps.clock.now());
        log.info('présentation enregistrée par le membre', {
          reqId: c.get('requestId'),
          memberId: caller.id,
          removed: presentation === null,
        });
        c.header('Cache-Control', 'private, no-store');
        return c.json({ presentation }, 200);
      })
      // Staff, beside the candidates: read on request and logged (the member's file read logs its own).
      .get('/dashboard/members/:id/presentation', staffOnly, async (c) => {
        const id = c.req.param('id');
        if (!MEMBER_UUID.test(id)) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
        const row = await memberRoleById(db, id);
        if (row?.role !== 'member') throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
        c.header('Cache-Control', 'private, no-store');
        return c.json({ presentation: await presentationOf(db, row.id) }, 200);
      })
      // The staff's review queue (decision 200): every presentation waiting, the oldest first.
      .get('/dashboard/presentations', staffOnly, async (c) => {
        c.header('Cache-Control', 'private, no-store');
        const mine = await counselledIds(db, c.get('staff'));
        const waiting = await presentationsWaiting(db);
        return c.json({ presentations: mine ? waiting.filter((p) => mine.has(p.memberId.toLowerCase())) : waiting }, 200);
      })
      // Staff approve the text they read, or refuse it with a message the member reads (decision 200).
      .post('/dashboard/members/:id/presentation/review', staffOnly, async (c) => {
        const id = c.req.param('id');
        if (!MEMBER_UUID.test(id)) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
        const staff = c.get('staff');
        const body = await readJson(c, v.unknown());
        const presentation = await reviewPresentation(db, id, body, staff.id, deps.clock.now());
        log.info('présentation examinée', { reqId: c.get('requestId'), staffId: staff.id, memberId: id, status: presentation.status });
        c.header('Cache-Control', 'private, no-store');
        return c.json({ presentation }, 200);
      })
      .post('/user/change-requests', async (c) => {
        const caller = await memberCaller(c);
        const body = await readJson(c, v.unknown());
        const request = await requestChange(db, caller.id, body, deps.clock.now());
        log.info('demande de modification envoyée', { reqId: c.get('requestId'), memberId: caller.id, requestId: request.id });
        c.header('Cache-Control', 'private, no-store');
        return c.json({ request }, 201);
      })
      .get('/dashboard/members/:id/change-requests', staffOnly, async (c) => {
        const id = c.req.param('id');
        if (!MEMBER_UUID.test(id)) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
        c.header('Cache-Control', 'private, no-store');
        return c.json({ requests: await changeRequestsOf(db, id) }, 200);
      })
      .post('/dashboard/change-requests/:requestId', staffOnly, async (c) => {
        const raw = c.req.param('requestId');
        if (!REQUEST_ID.test(raw)) throw new ApiError(404, 'CHANGE_REQUEST_NOT_FOUND', 'Demande de modification introuvable.');
        const staff = c.get('staff');
        const body = await readJson(c, v.unknown());
        const site = { siteUrl: deps.config.publicSiteUrl, agency: deps.config.agency };
        const request = await decideChangeRequest(db, Number(raw), body, staff.id, deps.clock.now(), (row) =>
          changeRequestAnsweredMail(site, { to: row.email, firstName: firstNameOf(row.profile) }),
        );
        deps.mailQueued();
        log.info('demande de modification traitée', {
          reqId: c.get('requestId'),
          staffId: staff.id,
          requestId: request.id,
          status: request.status,
        });
        c.header('Cache-Control', 'private, no-store');
        return c.json({ request }, 200);
      })
  );
}
