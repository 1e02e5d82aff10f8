import * as v from 'valibot';
import { ageOn, type Language, type MaritalStatus, type PrayerPractice, type RequirableCriterion } from '#machines/onboarding/forms.ts';
import {
  HEIGHT_MAX_CM,
  HEIGHT_MIN_CM,
  heightText,
  heightWishText,
  maritalStatusLabelFor,
  maritalStatusLabels,
  prayerPracticeLabels,
  regionLabels,
  requirableCriterionLabels,
  soughtPracticeLabels,
} from '#machines/onboarding/labels.ts';
import { homeRegions } from '#machines/matching/regions.ts';
import { availableAt, type MatchProfile, practiceLevels } from '#machines/matching/match-profile.ts';
import { count } from '#machines/french/plural.ts';

/**
 * Matchmaking criteria (issue 22, decisions 113 and 193): which active members staff may introduce
 * to each other, and why. Pure, shared by the SPA and the BFF (the SQL ranking of
 * bff/matching/ranking-sql.ts evaluates the same rules on indexed columns; the tests hold it to
 * these functions). The profiles judged are match-profile.ts's.
 *
 * Every criterion is judged both ways: the member's answer against the candidate's profile and the
 * candidate's against the member's. A criterion the seeker marked indispensable excludes; the
 * others rank. Availability and the other sex are conditions of any proposal.
 */

const maritalStatuses = Object.keys(maritalStatusLabels) as MaritalStatus[];

// ---------------------------------------------------------------------------
// Criteria (decision 193)

/**
 * Every criterion a pair is judged on, once per side (the seeker's answer against the other's
 * profile). The seven of the questionnaire are indispensable or only wished, as each member marks
 * them; the professional situation is only ever wished (a free-text profession cannot prove it).
 * Availability and the other sex are conditions of any proposal, not criteria: never listed.
 */
export const criteria = {
  age: { label: requirableCriterionLabels.age, words: 'âge', points: 2 },
  region: { label: requirableCriterionLabels.region, words: 'région', points: 2 },
  pratique: { label: requirableCriterionLabels.pratique, words: 'pratique religieuse', points: 2 },
  'situation-familiale': { label: requirableCriterionLabels['situation-familiale'], words: 'situation familiale', points: 2 },
  enfants: { label: requirableCriterionLabels.enfants, words: 'enfants', points: 2 },
  'desir-enfants': { label: requirableCriterionLabels['desir-enfants'], words: 'désir d’enfants', points: 1 },
  demenagement: { label: requirableCriterionLabels.demenagement, words: 'lieu de vie', points: 1 },
  'situation-professionnelle': { label: 'Situation professionnelle', words: 'situation professionnelle', points: 1 },
  /** Decision 212: the height wished (step 2, optional), only ever a wish; an unknown height is `a-verifier`. */
  taille: { label: 'Taille', words: 'taille', points: 1 },
} as const satisfies Record<RequirableCriterion | WishOnly, { label: string; words: string; points: number }>;
/** The criteria that are only ever wishes: nobody can mark them indispensable. */
type WishOnly = 'situation-professionnelle' | 'taille';
export type CriterionId = keyof typeof criteria;
export const criterionIds = Object.keys(criteria) as CriterionId[];

/**
 * What a criterion says of a pair, one way: `oui` it matches; `non` it does not; `a-verifier` the
 * answers do not tell (an answer missing, « je ne sais pas encore », a stable job behind a free-text
 * profession); `indifferent` the seeker asked nothing of it (« peu importe », every choice ticked).
 * A criterion is met by `oui` and `indifferent` only: an indispensable one `a-verifier` excludes.
 */
export type Verdict = 'oui' | 'non' | 'a-verifier' | 'indifferent';
export const verdictLabels = {
  oui: 'correspond',
  non: 'ne correspond pas',
  'a-verifier': 'à vérifier',
  indifferent: 'peu importe',
} as const satisfies Record<Verdict, string>;

export function verdictMet(verdict: Verdict): boolean {
  return verdict === 'oui' || verdict === 'indifferent';
}

/**
 * Whose criterion a result is: `membre` — the member's criterion judged on the candidate;
 * `candidat` — the candidate's criterion judged on the member.
 */
export type Side = 'membre' | 'candidat';

export interface CriterionResult {
  criterion: CriterionId;
  side: Side;
  verdict: Verdict;
  met: boolean;
  /** Marked indispensable by the seeker (never for the professional situation). */
  required: boolean;
  /** The criterion's points when met, else 0. */
  points: number;
  /** French, for staff: what was compared, short (« 31 ans ; recherché : 28–35 ans »). */
  reason: string;
}

function ageAt(profile: Pick<MatchProfile, 'birthDate'>, now: number): number {
  return ageOn(profile.birthDate, now) ?? -1;
}

const everyRegion = homeRegions.length;

/**
 * Words in a free-text profession that say studies, or no activity. Matched case-insensitively by
 * JavaScript and by PostgreSQL's `~*` (which folds ASCII letters only, hence É and Ô written out).
 */
export const STUDIES_PATTERN = '([éÉe]tudiant|doctorant|lyc[éÉe]en|alternan|apprenti|en [éÉe]tudes)';
export const NO_ACTIVITY_PATTERN =
  '(sans emploi|sans activit|sans profession|ch[ôÔo]mage|ch[ôÔo]meu|demandeu[rs]e? d.emploi|recherche d.emploi|en recherche|au foyer|inactif|inactive)';
const studies = new RegExp(STUDIES_PATTERN, 'i');
const noActivity = new RegExp(NO_ACTIVITY_PATTERN, 'i');

/** What a free-text profession says of the person's activity (studies are checked first). */
export function occupationOf(profession: string): 'etudes' | 'sans-activite' | 'activite' {
  if (studies.test(profession)) return 'etudes';
  if (noActivity.test(profession)) return 'sans-activite';
  return 'activite';
}

function practiceRank(practice: PrayerPractice): number {
  return practiceLevels.indexOf(practice);
}

/**
 * The verdict of one criterion of `seeker`, judged on `other`, with its reason (pure; the table
 * test of machines/matching/criteria.test.ts and the SQL of bff/matching/candidates.ts hold to it).
 */
export function judge(
  criterion: CriterionId,
  seeker: MatchProfile,
  other: MatchProfile,
  now: number,
): { verdict: Verdict; reason: string } {
  switch (criterion) {
    case 'age': {
      const age = ageAt(other, now);
      const verdict = age >= seeker.ageMin && age <= seeker.ageMax ? 'oui' : 'non';
      return { verdict, reason: `${age} ans ; recherché : ${seeker.ageMin}–${seeker.ageMax} ans` };
    }
    case 'region': {
      const name = regionLabels[other.region];
      if (seeker.regionsAccepted.length === everyRegion) return { verdict: 'indifferent', reason: `${name} ; toute région` };
      return seeker.regionsAccepted.includes(other.region)
        ? { verdict: 'oui', reason: `${name}, parmi les régions choisies` }
        : { verdict: 'non', reason: `${name}, hors des régions choisies` };
    }
    case 'pratique': {
      const name = prayerPracticeLabels[other.practice];
      if (seeker.soughtPractice === 'indifferent') return { verdict: 'indifferent', reason: `${name} ; toute pratique` };
      const sought = soughtPracticeLabels[seeker.soughtPractice];
      const diff = practiceRank(other.practice) - practiceRank(seeker.soughtPractice);
      if (diff === 0) return { verdict: 'oui', reason: `${name}, comme recherché` };
      return diff < 0
        ? { verdict: 'oui', reason: `${name}, plus régulière que recherché (${sought})` }
        : { verdict: 'non', reason: `${name}, moins régulière que recherché (${sought})` };
    }
    case 'situation-familiale': {
      const name = maritalStatusLabelFor(other.maritalStatus, other.gender);
      if (seeker.familySituationsAccepted.length === maritalStatuses.length) {
        return { verdict: 'indifferent', reason: `${name} ; toute situation` };
      }
      return seeker.familySituationsAccepted.includes(other.maritalStatus)
        ? { verdict: 'oui', reason: `${name}, parmi les situations acceptées` }
        : { verdict: 'non', reason: `${name}, hors des situations acceptées` };
    }
    case 'enfants': {
      const children = other.childrenCount === 0 ? 'Sans enfant' : count(other.childrenCount, 'enfant', 'enfants');
      if (seeker.acceptsChildren) return { verdict: 'indifferent', reason: `${children} ; enfants acceptés` };
      return other.childrenCount === 0
        ? { verdict: 'oui', reason: 'Sans enfant, comme souhaité' }
        : { verdict: 'non', reason: `${children}, alors qu’une personne sans enfant est recherchée` };
    }
    case 'desir-enfants': {
      if (seeker.wantsChildren === 'peut-etre' || seeker.wantsChildren === 'inconnu') {
        return { verdict: 'indifferent', reason: 'Pas de souhait exprimé' };
      }
      if (other.wantsChildren === 'inconnu') return { verdict: 'a-verifier', reason: 'N’a pas encore répondu' };
      if (other.wantsChildren === 'peut-etre') return { verdict: 'a-verifier', reason: 'Ne sait pas encore' };
      if (other.wantsChildren === seeker.wantsChildren) {
        return {
          verdict: 'oui',
          reason: seeker.wantsChildren === 'oui' ? 'Souhaite aussi des enfants' : 'Ne souhaite pas d’enfants non plus',
        };
      }
      return { verdict: 'non', reason: other.wantsChildren === 'oui' ? 'Souhaite des enfants' : 'Ne souhaite pas d’enfants' };
    }
    case 'demenagement': {
      if (seeker.readyToRelocate !== false) {
        return { verdict: 'indifferent', reason: seeker.readyToRelocate ? 'Accepte de déménager' : 'Pas de réponse sur un déménagement' };
      }
      if (other.region === seeker.region) return { verdict: 'oui', reason: `Même région (${regionLabels[other.region]})` };
      const woman = other.gender === 'femme';
      if (other.readyToRelocate === true) return { verdict: 'oui', reason: `Autre région, ${woman ? 'prête' : 'prêt'} à déménager` };
      if (other.readyToRelocate === null) {
        return { verdict: 'a-verifier', reason: `Autre région ; n’a pas dit ${woman ? 'si elle' : 's’il'} déménagerait` };
      }
      return { verdict: 'non', reason: 'Autre région, et aucun des deux ne souhaite déménager' };
    }
    case 'taille': {
      const wish = heightWishText(seeker.soughtHeightMin, seeker.soughtHeightMax);
      if (wish === null) return { verdict: 'indifferent', reason: 'Pas de taille souhaitée' };
      const height = other.heightCm ?? null;
      if (height === null) return { verdict: 'a-verifier', reason: `Taille non indiquée ; souhaitée : ${wish}` };
      const inside = height >= (seeker.soughtHeightMin ?? HEIGHT_MIN_CM) && height <= (seeker.soughtHeightMax ?? HEIGHT_MAX_CM);
      return inside
        ? { verdict: 'oui', reason: `${heightText(height)}, dans la taille souhaitée (${wish})` }
        : { verdict: 'non', reason: `${heightText(height)}, hors de la taille souhaitée (${wish})` };
    }
    case 'situation-professionnelle': {
      if (seeker.soughtProfessionalSituation === 'indifferent') return { verdict: 'indifferent', reason: other.profession };
      const occupation = occupationOf(other.profession);
      if (seeker.soughtProfessionalSituation === 'en-activite-ou-etudes') {
        return occupation === 'sans-activite'
          ? { verdict: 'non', reason: `${other.profession} ; en activité ou en études recherché` }
          : { verdict: 'oui', reason: `${other.profession}, ${occupation === 'etudes' ? 'en études' : 'en activité'}` };
      }
      return occupation === 'activite'
        ? { verdict: 'a-verifier', reason: `${other.profession} ; emploi stable à confirmer` }
        : { verdict: 'non', reason: `${other.profession} ; un emploi stable est recherché` };
    }
  }
}

/** Every criterion of `seeker`, judged on `other`, in the order of `criteria`. */
export function criteriaOf(seeker: MatchProfile, other: MatchProfile, side: Side, now: number): CriterionResult[] {
  return criterionIds.map((criterion) => {
    const { verdict, reason } = judge(criterion, seeker, other, now);
    const met = verdictMet(verdict);
    return {
      criterion,
      side,
      verdict,
      met,
      required: (seeker.requiredCriteria as readonly CriterionId[]).includes(criterion),
      points: met ? criteria[criterion].points : 0,
      reason,
    };
  });
}

/** Both sides of a pair: `a`'s criteria judged on `b` (`membre`), then `b`'s on `a` (`candidat`). */
export function pairCriteria(a: MatchProfile, b: MatchProfile, now: number): CriterionResult[] {
  return [...criteriaOf(a, b, 'membre', now), ...criteriaOf(b, a, 'candidat', now)];
}

/** The indispensable criteria of each side that the pair breaks: `a`'s (judged on `b`) and `b`'s. */
export function brokenRequired(a: MatchProfile, b: MatchProfile, now: number): { a: RequirableCriterion[]; b: RequirableCriterion[] } {
  const broken = (seeker: MatchProfile, other: MatchProfile) =>
    seeker.requiredCriteria.filter((criterion) => !verdictMet(judge(criterion, seeker, other, now).verdict));
  return { a: broken(a, b), b: broken(b, a) };
}

/** Both can be proposed now, of opposite sexes (the conditions of any proposal, never listed as criteria). */
export function proposable(a: MatchProfile, b: MatchProfile, now: number): boolean {
  return availableAt(a, now) && availableAt(b, now) && a.gender !== b.gender;
}

/** Whether `b` may be in `a`'s candidates: proposable, and no indispensable criterion of either side broken. */
export function eligible(a: MatchProfile, b: MatchProfile, now: number): boolean {
  if (!proposable(a, b, now)) return false;
  const broken = brokenRequired(a, b, now);
  return broken.a.length === 0 && broken.b.length === 0;
}

// ---------------------------------------------------------------------------
// Affinities (decision 208): what two answers of the richer profile share. They rank and never
// exclude, and are not criteria (nobody asked for them): a pair earns their points once, not per side.

export const affinities = {
  langue: { label: 'Langue commune', points: 2 },
  etudes: { label: 'Même niveau d’études', points: 1 },
  madhhab: { label: 'Même école juridique', points: 1 },
} as const;
export type AffinityId = keyof typeof affinities;
export const affinityIds = Object.keys(affinities) as AffinityId[];

/** The languages both speak, in the order of the form. */
export function sharedLanguages(a: Pick<MatchProfile, 'languages'>, b: Pick<MatchProfile, 'languages'>): Language[] {
  return (a.languages ?? []).filter((l) => b.languages?.includes(l));
}

/** The affinities of a pair (symmetric); « sans préférence » shares no school. */
export function pairAffinities(a: MatchProfile, b: MatchProfile): AffinityId[] {
  const found: AffinityId[] = [];
  if (sharedLanguages(a, b).length > 0) found.push('langue');
  if (a.educationLevel && a.educationLevel === b.educationLevel) found.push('etudes');
  if (a.madhhab && a.madhhab !== 'sans-preference' && a.madhhab === b.madhhab) found.push('madhhab');
  return found;
}

export function affinityPoints(a: MatchProfile, b: MatchProfile): number {
  return pairAffinities(a, b).reduce((sum, id) => sum + affinities[id].points, 0);
}

/** The most points a pair can score: every criterion met, both ways, and every affinity. */
export const MAX_SCORE =
  2 * criterionIds.reduce((sum, id) => sum + criteria[id].points, 0) + affinityIds.reduce((sum, id) => sum + affinities[id].points, 0);

/** The two-way score of a pair: the points of every criterion met, both ways, and of their affinities (symmetric). */
export function pairScore(a: MatchProfile, b: MatchProfile, now: number): number {
  return pairCriteria(a, b, now).reduce((sum, r) => sum + r.points, 0) + affinityPoints(a, b);
}

// ---------------------------------------------------------------------------
// What a member reads of a proposal (decision 193)

/** « âge, région et situation familiale ». */
function wordList(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} et ${words[words.length - 1]}`;
}

/**
 * Why a proposal fits, for the member `me` about `other`: at most two sentences, only what
 * matches — their indispensable criteria, then their wishes — never what does not.
 */
export function memberReasons(me: MatchProfile, other: MatchProfile, now: number): string[] {
  const results = criteriaOf(me, other, 'membre', now).filter((r) => r.verdict === 'oui');
  const pronoun = other.gender === 'femme' ? 'Elle' : 'Il';
  const required = results.filter((r) => r.required).map((r) => criteria[r.criterion].words);
  const wished = results.filter((r) => !r.required).map((r) => criteria[r.criterion].words);
  const lines: string[] = [];
  if (required.length > 0) lines.push(`${pronoun} correspond à vos critères indispensables : ${wordList(required)}.`);
  if (wished.length > 0) {
    lines.push(
      required.length > 0
        ? `${pronoun} correspond aussi à vos souhaits : ${wordList(wished)}.`
        : `${pronoun} correspond à vos souhaits : ${wordList(wished)}.`,
    );
  }
  return lines;
}

/** The names of criteria as a member reads them in a sentence (« situation familiale et âge »). */
export function criteriaWords(ids: readonly CriterionId[]): string {
  return wordList(ids.map((id) => criteria[id].words));
}

/** Staff's written reason for proposing outside an indispensable criterion (decision 193), shown to that member. */
export const EXCEPTION_REASON_MAX_LENGTH = 800;
export const ExceptionReason = v.pipe(
  v.string('Justification invalide'),
  v.trim(),
  v.minLength(1, 'La justification ne peut pas être vide.'),
  v.maxLength(EXCEPTION_REASON_MAX_LENGTH, `La justification dépasse ${EXCEPTION_REASON_MAX_LENGTH} caractères.`),
);
