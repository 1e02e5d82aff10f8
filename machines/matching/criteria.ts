import * as v from 'valibot';
import {
  ageOn,
  type EducationLevel,
  educationLevels,
  type Language,
  languages as languageChoices,
  type Madhhab,
  type MaritalStatus,
  madhhabs,
  type PrayerPractice,
  type ProfessionalSituation,
  type Region,
  type RequirableCriterion,
  requirableCriteria,
  type SoughtPractice,
  storedQuestionnaireSchema,
  type WantsChildren,
} from '#machines/onboarding/forms.ts';
import {
  maritalStatusLabelFor,
  maritalStatusLabels,
  prayerPracticeLabels,
  regionLabels,
  requirableCriterionLabels,
  soughtPracticeLabels,
} from '#machines/onboarding/labels.ts';
import { type Gender, genders } from '#machines/onboarding/record.ts';
import { type HomeRegion, homeRegions, regionOfPostcode } from '#machines/matching/regions.ts';
import { count } from '#machines/french/plural.ts';
import { parisDayOf } from '#machines/paris-time.ts';

/**
 * Matchmaking criteria (issue 22, decisions 113 and 193): which active members staff may introduce
 * to each other, and why. Pure, shared by the SPA and the BFF (the SQL ranking of
 * bff/matching/candidates.ts evaluates the same rules on indexed columns; the tests hold it to
 * these functions).
 *
 * Every criterion is judged both ways: the member's answer against the candidate's profile and the
 * candidate's against the member's. A criterion the seeker marked indispensable excludes; the
 * others rank. Availability and the other sex are conditions of any proposal.
 */

// ---------------------------------------------------------------------------
// The profile

/** Prayer practice from the most to the least regular, in the order of the form. */
export const practiceLevels = Object.keys(prayerPracticeLabels) as PrayerPractice[];
const maritalStatuses = Object.keys(maritalStatusLabels) as MaritalStatus[];

export interface MatchProfile {
  memberId: string;
  gender: Gender;
  /** `YYYY-MM-DD` (step 1): the age is always computed at the time of the ranking. */
  birthDate: string;
  /** From the postcode of step 1 (regions.ts). */
  region: HomeRegion;
  practice: PrayerPractice;
  maritalStatus: MaritalStatus;
  childrenCount: number;
  /** Free text of step 1, shown as is (the form asks no sector). */
  profession: string;
  /** Their own wish for children (step 2); `inconnu` when saved before the question existed. */
  wantsChildren: ChildrenWish;
  /** Whether they would move to live with their spouse (step 2); null when saved before the question existed. */
  readyToRelocate: boolean | null;
  /**
   * The richer profile (step 1, decision 208): they only rank, never exclude. Absent (or empty)
   * when the member has not answered; the school of thought only under the sensitive-data consent.
   */
  languages?: Language[];
  educationLevel?: EducationLevel | null;
  heightCm?: number | null;
  madhhab?: Madhhab | null;
  /** The annex (step 2). */
  ageMin: number;
  ageMax: number;
  /** Regions where the person sought may live ("peu importe" gives every region). */
  regionsAccepted: HomeRegion[];
  soughtPractice: SoughtPractice;
  /** The practice sought or a more regular one ("peu importe" gives every level). */
  practicesAccepted: PrayerPractice[];
  familySituationsAccepted: MaritalStatus[];
  acceptsChildren: boolean;
  soughtProfessionalSituation: ProfessionalSituation;
  /** The criteria this member marks as indispensable, in the order of the questionnaire. */
  requiredCriteria: RequirableCriterion[];
  /** Active member, consent given, not paused, not disabled or erased. */
  available: boolean;
  unavailableReason: UnavailableReason | null;
  /** End of the term (ms since the epoch); past it the member is no longer proposed. */
  contractEndsAt: number | null;
}

export type ChildrenWish = WantsChildren | 'inconnu';

/**
 * The indispensable criteria of a questionnaire saved before decision 193 (no `requiredCriteria`):
 * those that already excluded then (age, regions, practice, children), so that no member's list
 * changes until they answer again; the criteria added by decision 193 are only wished.
 */
export const LEGACY_REQUIRED_CRITERIA: readonly RequirableCriterion[] = ['age', 'region', 'pratique', 'enfants'];

/** What steps 1-2 give: the profile without the member's availability. */
export type DerivedProfile = Omit<MatchProfile, 'available' | 'unavailableReason' | 'contractEndsAt'>;

/** The practice levels a sought practice accepts: that level or a more regular one. */
export function practicesAcceptedFor(sought: SoughtPractice): PrayerPractice[] {
  if (sought === 'indifferent') return [...practiceLevels];
  return practiceLevels.slice(0, practiceLevels.indexOf(sought) + 1);
}

/** The regions a list of the annex accepts ("peu importe" accepts all). */
export function regionsAcceptedFor(sought: readonly Region[]): HomeRegion[] {
  if (sought.includes('indifferent')) return [...homeRegions];
  return homeRegions.filter((region) => sought.includes(region));
}

// Step 1 as stored (members.profile): the fields matchmaking reads. The stored value was validated
// by the form's schema when saved; it is read again loosely (other fields may be there).
const storedProfileSchema = v.object({
  birthDate: v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/)),
  postcode: v.pipe(v.string(), v.regex(/^\d{5}$/)),
  maritalStatus: v.picklist(maritalStatuses),
  childrenCount: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(20)),
  profession: v.string(),
  prayerPractice: v.picklist(practiceLevels),
  // Decision 208: optional, read as absent when unreadable.
  languages: v.fallback(v.optional(v.array(v.picklist(languageChoices))), undefined),
  educationLevel: v.fallback(v.optional(v.picklist(educationLevels)), undefined),
  heightCm: v.fallback(v.optional(v.pipe(v.number(), v.integer())), undefined),
  madhhab: v.fallback(v.optional(v.picklist(madhhabs)), undefined),
});

/**
 * The match profile that steps 1-2 give (no re-typing), or null when either is missing or no
 * longer readable (a stripped profile after the term, a postcode of no département).
 */
export function profileFromOnboarding(input: {
  memberId: string;
  gender: string;
  profile: unknown;
  questionnaire: unknown;
}): DerivedProfile | null {
  if (!(genders as readonly string[]).includes(input.gender)) return null;
  const profile = v.safeParse(storedProfileSchema, input.profile);
  const questionnaire = v.safeParse(storedQuestionnaireSchema, input.questionnaire);
  if (!profile.success || !questionnaire.success) return null;
  const p = profile.output;
  const q = questionnaire.output;
  const region = regionOfPostcode(p.postcode);
  if (region === null) return null;
  return {
    memberId: input.memberId,
    gender: input.gender as Gender,
    birthDate: p.birthDate,
    region,
    practice: p.prayerPractice,
    maritalStatus: p.maritalStatus,
    childrenCount: p.childrenCount,
    profession: p.profession,
    languages: languageChoices.filter((l) => p.languages?.includes(l)),
    educationLevel: p.educationLevel ?? null,
    heightCm: p.heightCm ?? null,
    madhhab: p.madhhab ?? null,
    wantsChildren: q.wantsChildren ?? 'inconnu',
    readyToRelocate: q.readyToRelocate ?? null,
    ageMin: q.soughtAgeMin,
    ageMax: q.soughtAgeMax,
    regionsAccepted: regionsAcceptedFor(q.soughtRegions),
    soughtPractice: q.soughtPractice,
    practicesAccepted: practicesAcceptedFor(q.soughtPractice),
    familySituationsAccepted: maritalStatuses.filter((status) => q.soughtFamilySituations.includes(status)),
    acceptsChildren: q.acceptsChildren,
    soughtProfessionalSituation: q.soughtProfessionalSituation,
    requiredCriteria: requirableCriteria.filter((c) => (q.requiredCriteria ?? LEGACY_REQUIRED_CRITERIA).includes(c)),
  };
}

// ---------------------------------------------------------------------------
// Availability

export const unavailableReasonLabels = {
  'profil-incomplet': 'Profil ou questionnaire incomplet',
  'pas-encore-actif': 'L’adhésion n’est pas encore active',
  'consentement-absent': 'Pas de consentement au traitement des données sensibles',
  'mise-en-relation-suspendue': 'Mise en relation suspendue (consentement retiré)',
  desactive: 'Compte désactivé',
  efface: 'Données effacées',
  'contrat-termine': 'Contrat terminé',
  'resiliation-demandee': 'Résiliation demandée (motif légitime)',
} as const;
export type UnavailableReason = keyof typeof unavailableReasonLabels;

/** Why a member cannot be proposed, or null when they can; the first reason that applies. */
export function unavailableReasonOf(input: {
  /** Top state of the onboarding chart. */
  state: string;
  hasProfile: boolean;
  sensitiveDataConsentAt: string | null;
  matchmakingPausedAt: number | null;
  disabled: boolean;
  erasedAt: number | null;
  contractEndsAt: number | null;
  now: number;
}): UnavailableReason | null {
  if (input.erasedAt !== null) return 'efface';
  if (input.disabled) return 'desactive';
  if (input.matchmakingPausedAt !== null) return 'mise-en-relation-suspendue';
  if (input.sensitiveDataConsentAt === null) return 'consentement-absent';
  if (!input.hasProfile) return 'profil-incomplet';
  if (input.state === 'contrat-termine' || input.state === 'resilie') return 'contrat-termine';
  // A member who asked to terminate is proposed to no one while staff decide (decision 119).
  if (input.state === 'resiliation-demandee') return 'resiliation-demandee';
  if (input.state !== 'membre-actif') return 'pas-encore-actif';
  if (input.contractEndsAt !== null && input.contractEndsAt <= input.now) return 'contrat-termine';
  return null;
}

/** Available now: the stored flag, and the term still running at `now`. */
export function availableAt(profile: Pick<MatchProfile, 'available' | 'contractEndsAt'>, now: number): boolean {
  return profile.available && (profile.contractEndsAt === null || profile.contractEndsAt > now);
}

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
} as const satisfies Record<RequirableCriterion | 'situation-professionnelle', { label: string; words: string; points: number }>;
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
      required: criterion !== 'situation-professionnelle' && seeker.requiredCriteria.includes(criterion),
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

// ---------------------------------------------------------------------------
// Age bounds for the SQL (index on the birth date)

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** The latest birth date of a person aged at least `age` on `today` (29 February → 28 in a common year). */
function latestBirthDateForAge(today: string, age: number): string {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const year = y - age;
  const day = m === 2 && d === 29 && !isLeap(year) ? 28 : d;
  return `${String(year).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Birth dates of the people aged `min` to `max` on the day of `now` in France (as `ageOn`
 * counts): born after `after` (exclusive) and on or before `onOrBefore` (ISO dates).
 */
export function birthDateBounds(min: number, max: number, now: number): { after: string; onOrBefore: string } {
  const today = parisDayOf(now);
  return { after: latestBirthDateForAge(today, max + 1), onOrBefore: latestBirthDateForAge(today, min) };
}
