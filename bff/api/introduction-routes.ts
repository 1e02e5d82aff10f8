import { assertCounsels, counselledIds } from '#bff/auth/staff-policy.ts';
import { vValidator } from '@hono/valibot-validator';
import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { candidateRoutes } from '#bff/api/candidate-routes.ts';
import { type Caller, requireMember, staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { jsonBody, readJson } from '#bff/http/validate.ts';
import {
  applyIntroductionEvent,
  memberIntroduction,
  memberIntroductions,
  ProposeBody,
  proposeIntroduction,
  setIntroductionContactVia,
  staffIntroduction,
  staffIntroductions,
  stateFilters,
} from '#bff/introductions/introductions.ts';
import { PhoneFeedbackBody, phoneFeedbackEvent } from '#bff/introductions/feedback.ts';
import { log } from '#bff/logger.ts';
import { neverProposeReasonOf } from '#bff/matching/candidate-lists.ts';
import { neverProposeRefusal } from '#machines/introductions/candidate-lists.ts';

/**
 * Introductions (issue 22, decision 114) over HTTP. Members read and answer their own proposals
 * (their side comes from the session, never from the body; anything not theirs is 404); staff at
 * aal2 rank candidates, propose, follow and move introductions. Every event goes through
 * `applyIntroductionEvent` (one transaction, the chart as the authority, 409 with the state when
 * refused); bad input is a French 400 that changes nothing.
 */

const hook = (result: { success: boolean; issues?: readonly v.BaseIssue<unknown>[] }) => {
  if (!result.success) throw validationError(result.issues ?? [], 'Paramètres invalides');
};

const IdParam = v.object({ id: v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide')) });

const IntroductionsQuery = v.object({
  etat: v.optional(v.picklist(stateFilters, 'État inconnu'), 'ouvertes'),
});

/** A staff event body may name the version it was read at, beside the chart event's own fields. */
const ExpectedVersion = v.optional(v.pipe(v.number('Version invalide'), v.integer('Version invalide'), v.minValue(1, 'Version invalide')));

function splitExpectedVersion(input: unknown): { body: unknown; expectedVersion: number | undefined } {
  if (input === null || typeof input !== 'object' || Array.isArray(input) || !Object.hasOwn(input, 'expectedVersion')) {
    return { body: input, expectedVersion: undefined };
  }
  const { expectedVersion, ...body } = input as Record<string, unknown>;
  const parsed = v.safeParse(ExpectedVersion, expectedVersion);
  if (!parsed.success) throw validationError(parsed.issues);
  return { body, expectedVersion: parsed.output };
}

export function introductionRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(deps);
  const site = { siteUrl: deps.config.publicSiteUrl, agency: deps.config.agency };

  /** A signed-in member (staff have the dashboard routes). */
  const memberCaller = (c: Context): Promise<Caller> => requireMember(c, deps);

  return (
    new Hono()
      // A member's candidates, the shortlist and the pairs never to propose (decisions 193, 201, 208, 212).
      .route('/', candidateRoutes(deps))
      .get('/user/introductions', async (c) => {
        const caller = await memberCaller(c);
        const introductions = await memberIntroductions(db, caller.id, deps.clock.now());
        c.header('Cache-Control', 'private, no-store');
        return c.json({ introductions }, 200);
      })
      .post('/user/introductions/:id/events', async (c) => {
        const caller = await memberCaller(c);
        const id = c.req.param('id');
        const body = await readJson(c, v.unknown());
        const now = deps.clock.now();
        await applyIntroductionEvent(db, { introductionId: id, body, actor: { id: caller.id, role: 'member' }, now, mail: site });
        deps.mailQueued();
        const introduction = await memberIntroduction(db, caller.id, id, now);
        if (!introduction) throw new ApiError(404, 'INTRODUCTION_NOT_FOUND', 'Mise en relation introuvable.');
        log.info('mise en relation : réponse d’un membre', { reqId: c.get('requestId'), introductionId: id, memberId: caller.id });
        c.header('Cache-Control', 'private, no-store');
        return c.json({ introduction }, 200);
      })
      // Decision 196: how the other member reaches the caller in this introduction (own contact, or the walī only).
      .put('/user/introductions/:id/contact', async (c) => {
        const caller = await memberCaller(c);
        const body = await readJson(c, v.unknown());
        const introduction = await setIntroductionContactVia(db, caller.id, c.req.param('id'), body, deps.clock.now());
        log.info('mise en relation : choix du contact', {
          reqId: c.get('requestId'),
          introductionId: introduction.id,
          memberId: caller.id,
        });
        c.header('Cache-Control', 'private, no-store');
        return c.json({ introduction }, 200);
      })
      .get('/dashboard/introductions', staffOnly, vValidator('query', IntroductionsQuery, hook), async (c) => {
        const { etat } = c.req.valid('query');
        const all = await staffIntroductions(db, etat);
        const mine = await counselledIds(db, c.var.staff);
        const introductions = mine
          ? all.filter((i) => mine.has(i.members.a.id.toLowerCase()) || mine.has(i.members.b.id.toLowerCase()))
          : all;
        c.header('Cache-Control', 'private, no-store');
        return c.json({ introductions }, 200);
      })
      .post('/dashboard/introductions', staffOnly, jsonBody(ProposeBody), async (c) => {
        const body = c.req.valid('json');
        const staff = c.var.staff;
        // A counsellor proposes for one of their members (decision 206).
        await assertCounsels(db, staff, [body.a, body.b], 'some');
        // A pair staff said never to propose (decision 201): refused, nothing written.
        const never = await neverProposeReasonOf(db, body.a, body.b);
        if (never !== null) throw new ApiError(422, 'NEVER_PROPOSE', neverProposeRefusal(never));
        const row = await proposeIntroduction(db, { staffId: staff.id, ...body, now: deps.clock.now(), mail: site });
        deps.mailQueued();
        log.info('mise en relation proposée', { reqId: c.get('requestId'), introductionId: row.id, staffId: staff.id });
        const introduction = await staffIntroduction(db, row.id);
        c.header('Cache-Control', 'private, no-store');
        return c.json({ introduction }, 201);
      })
      .get('/dashboard/introductions/:id', staffOnly, vValidator('param', IdParam, hook), async (c) => {
        const { id } = c.req.valid('param');
        const introduction = await staffIntroduction(db, id);
        if (!introduction) throw new ApiError(404, 'INTRODUCTION_NOT_FOUND', 'Mise en relation introuvable.');
        c.header('Cache-Control', 'private, no-store');
        // The detail itself (the SPA's `getIntroduction` reads it unwrapped).
        return c.json(introduction, 200);
      })
      .post('/dashboard/introductions/:id/events', staffOnly, vValidator('param', IdParam, hook), async (c) => {
        const { id } = c.req.valid('param');
        const staff = c.var.staff;
        const { body, expectedVersion } = splitExpectedVersion(await readJson(c, v.unknown()));
        const applied = await applyIntroductionEvent(db, {
          introductionId: id,
          body,
          actor: { id: staff.id, role: 'staff' },
          now: deps.clock.now(),
          expectedVersion,
          mail: site,
        });
        deps.mailQueued();
        log.info('mise en relation : action de l’équipe', {
          reqId: c.get('requestId'),
          introductionId: id,
          staffId: staff.id,
          state: applied.state,
        });
        const introduction = await staffIntroduction(db, id);
        c.header('Cache-Control', 'private, no-store');
        return c.json({ introduction }, 200);
      })
      // Decision 205: a member's feedback heard by phone, recorded by staff (who and when are kept).
      .post(
        '/dashboard/introductions/:id/feedback',
        staffOnly,
        vValidator('param', IdParam, hook),
        jsonBody(PhoneFeedbackBody),
        async (c) => {
          const { id } = c.req.valid('param');
          const body = c.req.valid('json');
          const staff = c.var.staff;
          const applied = await applyIntroductionEvent(db, {
            introductionId: id,
            body: phoneFeedbackEvent(body),
            actor: { id: staff.id, role: 'staff' },
            now: deps.clock.now(),
            expectedVersion: body.expectedVersion,
            mail: site,
            byPhone: true,
          });
          deps.mailQueued();
          log.info('mise en relation : retour recueilli par téléphone', {
            reqId: c.get('requestId'),
            introductionId: id,
            staffId: staff.id,
            state: applied.state,
          });
          const introduction = await staffIntroduction(db, id);
          c.header('Cache-Control', 'private, no-store');
          return c.json({ introduction }, 200);
        },
      )
  );
}
