import { assertCounsels, counselledIds } from '#bff/auth/staff-policy.ts';
import { memberPresentations } from '#bff/db/presentation-schema.ts';
import { vValidator } from '@hono/valibot-validator';
import { eq, inArray } from 'drizzle-orm';
import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { type Caller, requireMember, staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { members } from '#bff/db/schema.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { jsonBody, readJson } from '#bff/http/validate.ts';
import {
  applyIntroductionEvent,
  exclusionsFor,
  introductionBlockOf,
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
import { firstNameOf } from '#bff/mail/agency-mail-triggers.ts';
import { log } from '#bff/logger.ts';
import { DEFAULT_CANDIDATES, MAX_CANDIDATES, rankCandidates } from '#bff/matching/ranking.ts';
import {
  addNeverPropose,
  addToShortlist,
  neverProposedWith,
  neverProposeOf,
  neverProposeReasonOf,
  removeFromShortlist,
  removeNeverPropose,
  shortlistedIds,
  shortlistOf,
} from '#bff/matching/candidate-lists.ts';
import { neverProposeRefusal } from '#machines/introductions/candidate-lists.ts';
import { NO_COUNSELLOR } from '#machines/follow-up/follow-up.ts';
import { affinities, pairAffinities } from '#machines/matching/criteria.ts';
import { type MatchProfile, unavailableReasonLabels } from '#machines/matching/match-profile.ts';
import type { RequirableCriterion } from '#machines/onboarding/forms.ts';
import { type HomeRegion, homeRegions } from '#machines/matching/regions.ts';
import {
  ageOn,
  type Beard,
  educationLevels,
  type Hijab,
  languages,
  type MaritalStatus,
  madhhabs,
  type PrayerPractice,
} from '#machines/onboarding/forms.ts';
import {
  beardLabels,
  educationLevelLabels,
  HEIGHT_MAX_CM,
  HEIGHT_MIN_CM,
  heightText,
  hijabLabels,
  languageLabels,
  madhhabLabels,
  maritalStatusLabelFor,
  maritalStatusLabels,
  prayerPracticeLabels,
  regionLabels,
  requirableCriterionLabels,
} from '#machines/onboarding/labels.ts';

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

const intParam = (min: number, max: number, message: string) =>
  v.optional(
    v.pipe(
      v.string(message),
      v.regex(/^\d{1,4}$/, message),
      v.transform(Number),
      v.minValue(min, `Au moins ${min}`),
      v.maxValue(max, `Au plus ${max}`),
    ),
  );

/** `GET /dashboard/members/:id/candidates`: staff's filters only narrow what the hard criteria allow. */
const CandidatesQuery = v.object({
  limit: intParam(1, MAX_CANDIDATES, 'Nombre de candidats invalide'),
  region: v.optional(v.picklist(homeRegions, 'Région inconnue')),
  practice: v.optional(v.picklist(Object.keys(prayerPracticeLabels) as PrayerPractice[], 'Pratique inconnue')),
  maritalStatus: v.optional(v.picklist(Object.keys(maritalStatusLabels) as MaritalStatus[], 'Situation familiale inconnue')),
  ageMin: intParam(18, 120, 'Âge minimum invalide'),
  ageMax: intParam(18, 120, 'Âge maximum invalide'),
  withoutChildren: v.optional(v.picklist(['true', 'false'], 'Valeur attendue : true ou false')),
  minScore: intParam(0, 100, 'Score minimum invalide'),
  /** `true`: only those outside an indispensable criterion of either side (decision 193). */
  horsCriteres: v.optional(v.picklist(['true', 'false'], 'Valeur attendue : true ou false')),
  // Decision 201: paging past the first page, children either way, the candidates' counsellor (or none).
  page: intParam(1, 500, 'Page invalide'),
  enfants: v.optional(v.picklist(['sans', 'avec'], 'Valeur attendue : sans ou avec')),
  counsellor: v.optional(
    v.pipe(
      v.string('Conseiller inconnu'),
      v.check((value) => value === NO_COUNSELLOR || v.is(v.pipe(v.string(), v.uuid()), value), 'Conseiller inconnu'),
    ),
  ),
  // Decision 208: a language the candidate speaks, the school of thought they follow.
  langue: v.optional(v.picklist(languages, 'Langue inconnue')),
  madhhab: v.optional(v.picklist(madhhabs, 'École juridique inconnue')),
  // Decision 212: the level of education, a height range (cm), and under the consent the hijab and the beard.
  etudes: v.optional(v.picklist(educationLevels, 'Niveau d’études inconnu')),
  tailleMin: intParam(HEIGHT_MIN_CM, HEIGHT_MAX_CM, 'Taille minimale invalide'),
  tailleMax: intParam(HEIGHT_MIN_CM, HEIGHT_MAX_CM, 'Taille maximale invalide'),
  voile: v.optional(v.picklist(Object.keys(hijabLabels) as Hijab[], 'Réponse inconnue sur le voile')),
  barbe: v.optional(v.picklist(Object.keys(beardLabels) as Beard[], 'Réponse inconnue sur la barbe')),
});

const PairParam = v.object({
  id: v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide')),
  otherId: v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide')),
});

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

function summaryOf(profile: MatchProfile | null, firstName: string | null, now: number) {
  if (!profile) return null;
  return {
    firstName,
    gender: profile.gender,
    age: ageOn(profile.birthDate, now),
    region: regionLabels[profile.region as HomeRegion],
    practice: prayerPracticeLabels[profile.practice],
    familySituation: maritalStatusLabelFor(profile.maritalStatus, profile.gender),
    childrenCount: profile.childrenCount,
    profession: profile.profession,
    sought: {
      ageMin: profile.ageMin,
      ageMax: profile.ageMax,
      regions: profile.regionsAccepted.map((r) => regionLabels[r]),
      practices: profile.practicesAccepted.map((p) => prayerPracticeLabels[p]),
      acceptsChildren: profile.acceptsChildren,
      required: profile.requiredCriteria.map((c) => requirableCriterionLabels[c]),
    },
  };
}

const criterionNames = (ids: readonly RequirableCriterion[]) => ids.map((id) => requirableCriterionLabels[id]);

export function introductionRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(deps);
  const site = { siteUrl: deps.config.publicSiteUrl, agency: deps.config.agency };

  /** A signed-in member (staff have the dashboard routes). */
  const memberCaller = (c: Context): Promise<Caller> => requireMember(c, deps);

  return (
    new Hono()
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
      .get(
        '/dashboard/members/:id/candidates',
        staffOnly,
        vValidator('param', IdParam, hook),
        vValidator('query', CandidatesQuery, hook),
        async (c) => {
          const { id } = c.req.valid('param');
          const query = c.req.valid('query');
          if (query.ageMin !== undefined && query.ageMax !== undefined && query.ageMin > query.ageMax) {
            throw validationError([], 'L’âge minimum dépasse l’âge maximum.');
          }
          if (query.tailleMin !== undefined && query.tailleMax !== undefined && query.tailleMin > query.tailleMax) {
            throw validationError([], 'La taille minimale dépasse la taille maximale.');
          }
          const [row] = await db
            .select({ id: members.id, role: members.role, profile: members.profile })
            .from(members)
            .where(eq(members.id, id))
            .limit(1);
          if (row?.role !== 'member') throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
          const now = deps.clock.now().getTime();
          // Never proposed again, at the limit or engaged, and the pairs staff said never to propose (decision 201).
          const excluded = [...(await exclusionsFor(db, id)), ...(await neverProposedWith(db, id))];
          const perPage = query.limit ?? DEFAULT_CANDIDATES;
          const page = query.page ?? 1;
          const ranking = await rankCandidates(db, id, {
            // One more than the page: whether a next page exists.
            limit: perPage + 1,
            offset: (page - 1) * perPage,
            excludeMemberIds: excluded,
            outsideRequired: query.horsCriteres === 'true',
            now,
            filters: {
              ...(query.region ? { regions: [query.region] } : {}),
              ...(query.practice ? { practices: [query.practice] } : {}),
              ...(query.maritalStatus ? { maritalStatuses: [query.maritalStatus] } : {}),
              ...(query.langue ? { languages: [query.langue] } : {}),
              ...(query.madhhab ? { madhhabs: [query.madhhab] } : {}),
              ...(query.etudes ? { educationLevels: [query.etudes] } : {}),
              ...(query.tailleMin !== undefined ? { heightMin: query.tailleMin } : {}),
              ...(query.tailleMax !== undefined ? { heightMax: query.tailleMax } : {}),
              ...(query.voile ? { hijabs: [query.voile] } : {}),
              ...(query.barbe ? { beards: [query.barbe] } : {}),
              ...(query.ageMin !== undefined ? { ageMin: query.ageMin } : {}),
              ...(query.ageMax !== undefined ? { ageMax: query.ageMax } : {}),
              ...(query.withoutChildren === 'true' || query.enfants === 'sans' ? { withoutChildren: true } : {}),
              ...(query.enfants === 'avec' ? { withChildren: true } : {}),
              ...(query.counsellor !== undefined ? { counsellorId: query.counsellor === NO_COUNSELLOR ? null : query.counsellor } : {}),
              ...(query.minScore !== undefined ? { minScore: query.minScore } : {}),
            },
          });
          // Why the member cannot be proposed now: no profile, unavailable, engaged or at the limit.
          let unavailableReason: string | undefined;
          const hasMore = ranking.candidates.length > perPage;
          let candidates = ranking.candidates.slice(0, perPage);
          const me = ranking.member;
          if (!me) unavailableReason = unavailableReasonLabels['profil-incomplet'];
          else if (me.unavailableReason) unavailableReason = unavailableReasonLabels[me.unavailableReason];
          else if (me.contractEndsAt !== null && me.contractEndsAt <= now) unavailableReason = unavailableReasonLabels['contrat-termine'];
          if (!unavailableReason) unavailableReason = (await introductionBlockOf(db, id)) ?? undefined;
          if (unavailableReason) candidates = [];
          const ids = candidates.map((k) => k.memberId);
          const names =
            ids.length > 0
              ? await db.select({ id: members.id, profile: members.profile }).from(members).where(inArray(members.id, ids))
              : [];
          const nameOf = new Map(names.map((n) => [n.id.toLowerCase(), firstNameOf(n.profile)]));
          // Only whether each wrote a presentation (decision 128): the text is read on request, logged.
          const withPresentation = new Set(
            ids.length > 0
              ? (
                  await db
                    .select({ id: memberPresentations.memberId })
                    .from(memberPresentations)
                    .where(inArray(memberPresentations.memberId, ids))
                ).map((r) => r.id.toLowerCase())
              : [],
          );
          const shortlisted = await shortlistedIds(db, id);
          c.header('Cache-Control', 'private, no-store');
          return c.json(
            {
              page,
              perPage,
              hasMore: candidates.length > 0 && hasMore,
              member: {
                id,
                ...(summaryOf(me, firstNameOf(row.profile), now) ?? { firstName: firstNameOf(row.profile) }),
                ...(unavailableReason ? { unavailableReason } : {}),
              },
              candidates: candidates.map((k) => ({
                memberId: k.memberId,
                firstName: nameOf.get(k.memberId.toLowerCase()) ?? null,
                age: ageOn(k.profile.birthDate, now),
                region: regionLabels[k.profile.region],
                practice: prayerPracticeLabels[k.profile.practice],
                familySituation: maritalStatusLabelFor(k.profile.maritalStatus, k.profile.gender),
                childrenCount: k.profile.childrenCount,
                profession: k.profile.profession,
                // The richer profile (decision 208), in words; absent answers are empty.
                languages: (k.profile.languages ?? []).map((l) => languageLabels[l]),
                educationLevel: k.profile.educationLevel ? educationLevelLabels[k.profile.educationLevel] : null,
                height: k.profile.heightCm ? heightText(k.profile.heightCm) : null,
                madhhab: k.profile.madhhab ? madhhabLabels[k.profile.madhhab] : null,
                // Sensitive (decision 212): a candidate is always one who consented (no consent, no candidate).
                hijab: k.profile.hijab ? hijabLabels[k.profile.hijab] : null,
                beard: k.profile.beard ? beardLabels[k.profile.beard] : null,
                affinities: me ? pairAffinities(me, k.profile).map((a) => affinities[a].label) : [],
                score: k.score,
                maxScore: k.maxScore,
                reasons: k.reasons.map((r) => ({
                  criterion: r.criterion,
                  side: r.side,
                  verdict: r.verdict,
                  met: r.met,
                  required: r.required,
                  reason: r.reason,
                })),
                // The indispensable criteria broken (only with `horsCriteres=true`): the member's, the candidate's, in words.
                broken: { membre: criterionNames(k.broken.membre), candidat: criterionNames(k.broken.candidat) },
                hasPresentation: withPresentation.has(k.memberId.toLowerCase()),
                shortlisted: shortlisted.has(k.memberId.toLowerCase()),
              })),
            },
            200,
          );
        },
      )
      // Staff's shortlist for a member (decision 201).
      .get('/dashboard/members/:id/shortlist', staffOnly, vValidator('param', IdParam, hook), async (c) => {
        const { id } = c.req.valid('param');
        c.header('Cache-Control', 'private, no-store');
        return c.json({ shortlist: await shortlistOf(db, id) }, 200);
      })
      .put('/dashboard/members/:id/shortlist/:otherId', staffOnly, vValidator('param', PairParam, hook), async (c) => {
        const { id, otherId } = c.req.valid('param');
        await addToShortlist(db, id, otherId, c.var.staff.id, deps.clock.now());
        c.header('Cache-Control', 'private, no-store');
        return c.json({ shortlist: await shortlistOf(db, id) }, 200);
      })
      .delete('/dashboard/members/:id/shortlist/:otherId', staffOnly, vValidator('param', PairParam, hook), async (c) => {
        const { id, otherId } = c.req.valid('param');
        if (!(await removeFromShortlist(db, id, otherId)))
          throw new ApiError(404, 'SHORTLIST_NOT_FOUND', 'Ce candidat n’est pas dans la sélection.');
        c.header('Cache-Control', 'private, no-store');
        return c.json({ shortlist: await shortlistOf(db, id) }, 200);
      })
      // « Ne jamais proposer ces deux personnes », with a reason (decision 201).
      .get('/dashboard/members/:id/never-propose', staffOnly, vValidator('param', IdParam, hook), async (c) => {
        const { id } = c.req.valid('param');
        c.header('Cache-Control', 'private, no-store');
        return c.json({ pairs: await neverProposeOf(db, id) }, 200);
      })
      .post('/dashboard/members/:id/never-propose', staffOnly, vValidator('param', IdParam, hook), async (c) => {
        const { id } = c.req.valid('param');
        const body = await readJson(c, v.unknown());
        await addNeverPropose(db, id, body, c.var.staff.id, deps.clock.now());
        log.info('paire à ne jamais proposer', { reqId: c.get('requestId'), memberId: id, staffId: c.var.staff.id });
        c.header('Cache-Control', 'private, no-store');
        return c.json({ pairs: await neverProposeOf(db, id) }, 201);
      })
      .delete('/dashboard/members/:id/never-propose/:otherId', staffOnly, vValidator('param', PairParam, hook), async (c) => {
        const { id, otherId } = c.req.valid('param');
        if (!(await removeNeverPropose(db, id, otherId)))
          throw new ApiError(404, 'NEVER_PROPOSE_NOT_FOUND', 'Cette paire n’est pas dans la liste.');
        c.header('Cache-Control', 'private, no-store');
        return c.json({ pairs: await neverProposeOf(db, id) }, 200);
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
