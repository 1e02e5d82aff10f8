import { vValidator } from '@hono/valibot-validator';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { memberProfileById, profilesOf } from '#bff/members/member-rows.ts';
import { withPresentationAmong } from '#bff/matching/presentation.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { readJson } from '#bff/http/validate.ts';
import { exclusionsFor, introductionBlockOf } from '#bff/introductions/introductions.ts';
import { firstNameOf } from '#bff/mail/agency-mail-triggers.ts';
import { log } from '#bff/logger.ts';
import {
  addNeverPropose,
  addToShortlist,
  neverProposedWith,
  neverProposeOf,
  removeFromShortlist,
  removeNeverPropose,
  shortlistedIds,
  shortlistOf,
} from '#bff/matching/candidate-lists.ts';
import { DEFAULT_CANDIDATES, MAX_CANDIDATES, rankCandidates } from '#bff/matching/ranking.ts';
import { NO_COUNSELLOR } from '#machines/follow-up/follow-up.ts';
import { affinities, pairAffinities } from '#machines/matching/criteria.ts';
import { type MatchProfile, unavailableReasonLabels } from '#machines/matching/match-profile.ts';
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
  type RequirableCriterion,
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
 * A member's candidates over HTTP (issue 22; decisions 193, 201, 208 and 212), staff only at aal2:
 * the ranking with staff's filters and pages, the shortlist, and the pairs never to propose. Bad
 * input is a French 400 that changes nothing. Mounted by introduction-routes.ts.
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

export function candidateRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(deps);
  return (
    new Hono()
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
          const row = await memberProfileById(db, id);
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
          const names = await profilesOf(db, ids);
          const nameOf = new Map(names.map((n) => [n.id.toLowerCase(), firstNameOf(n.profile)]));
          // Only whether each wrote a presentation (decision 128): the text is read on request, logged.
          const withPresentation = await withPresentationAmong(db, ids);
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
  );
}
