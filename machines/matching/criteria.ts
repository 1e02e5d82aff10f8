import * as v from 'valibot';
import {
  ageOn,
  type MaritalStatus,
  type PrayerPractice,
  type ProfessionalSituation,
  type Region,
  type SoughtPractice,
  questionnaireSchema,
} from '#machines/onboarding/forms.ts';
import {
  maritalStatusLabels,
  prayerPracticeLabels,
  professionalSituationLabels,
  regionLabels,
  soughtPracticeLabels,
} from '#machines/onboarding/labels.ts';
import { type Gender, genders } from '#machines/onboarding/record.ts';
import { type HomeRegion, homeRegions, regionOfPostcode } from '#machines/matching/regions.ts';
import { count } from '#machines/french/plural.ts';
import { parisDayOf } from '#machines/paris-time.ts';

/**
 * Matchmaking criteria (issue 22): which active members staff may introduce to each other, and
 * why. Pure, shared by the SPA (the reasons shown beside each candidate) and the BFF (the SQL
 * ranking of bff/matching/candidates.ts evaluates the same rules on indexed columns; the tests
 * check it against these functions).
 *
 * Every annex criterion is checked both ways: the member's annex against the candidate's profile
 * and the candidate's annex against the member's. Hard criteria (the issue: availability, the
 * other sex, age range, region, practice, children) exclude; soft ones (family situation, same
 * region, exact practice, professional situation, age near the middle of the range) score.
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
  /** Active member, consent given, not paused, not disabled or erased. */
  available: boolean;
  unavailableReason: UnavailableReason | null;
  /** End of the term (ms since the epoch); past it the member is no longer proposed. */
  contractEndsAt: number | null;
}

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
  const questionnaire = v.safeParse(questionnaireSchema, input.questionnaire);
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
    ageMin: q.soughtAgeMin,
    ageMax: q.soughtAgeMax,
    regionsAccepted: regionsAcceptedFor(q.soughtRegions),
    soughtPractice: q.soughtPractice,
    practicesAccepted: practicesAcceptedFor(q.soughtPractice),
    familySituationsAccepted: maritalStatuses.filter((status) => q.soughtFamilySituations.includes(status)),
    acceptsChildren: q.acceptsChildren,
    soughtProfessionalSituation: q.soughtProfessionalSituation,
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
// Criteria

export const criteria = {
  disponibilite: { label: 'Disponibilité', kind: 'strict', points: 0 },
  sexe: { label: 'Sexe', kind: 'strict', points: 0 },
  age: { label: 'Âge', kind: 'strict', points: 0 },
  region: { label: 'Région', kind: 'strict', points: 0 },
  pratique: { label: 'Pratique religieuse', kind: 'strict', points: 0 },
  enfants: { label: 'Enfants', kind: 'strict', points: 0 },
  'situation-familiale': { label: 'Situation familiale', kind: 'souple', points: 3 },
  'meme-region': { label: 'Même région', kind: 'souple', points: 2 },
  'pratique-identique': { label: 'Pratique identique à celle recherchée', kind: 'souple', points: 2 },
  'situation-professionnelle': { label: 'Situation professionnelle', kind: 'souple', points: 1 },
  'coeur-tranche-age': { label: 'Âge au cœur de la tranche recherchée', kind: 'souple', points: 1 },
} as const satisfies Record<string, { label: string; kind: 'strict' | 'souple'; points: number }>;
export type CriterionId = keyof typeof criteria;
export const hardCriteriaIds = ['disponibilite', 'sexe', 'age', 'region', 'pratique', 'enfants'] as const satisfies readonly CriterionId[];

/**
 * Whose annex a result is about: `membre` — the member's annex against the candidate's profile;
 * `candidat` — the candidate's annex against the member's profile; `mutuel` — both at once.
 */
export type Side = 'membre' | 'candidat' | 'mutuel';
export const sideLabels = {
  membre: 'Critères du membre',
  candidat: 'Critères du candidat',
  mutuel: 'Les deux',
} as const satisfies Record<Side, string>;

export interface CriterionResult {
  criterion: CriterionId;
  side: Side;
  met: boolean;
  /** Soft criteria: the points given (0 when not met); hard criteria: 0. */
  points: number;
  /** French, for staff and members: "Âge dans la tranche recherchée (28–35 ans) : 31 ans". */
  reason: string;
}

function range(min: number, max: number): string {
  return `${min}–${max} ans`;
}

function ageAt(profile: Pick<MatchProfile, 'birthDate'>, now: number): number {
  return ageOn(profile.birthDate, now) ?? -1;
}

const everyRegion = homeRegions.length;

/** One side of every hard criterion of the annex: `seeker`'s annex against `other`'s profile. */
function hardSide(seeker: MatchProfile, other: MatchProfile, side: Side, now: number): CriterionResult[] {
  const age = ageAt(other, now);
  const ageMet = age >= seeker.ageMin && age <= seeker.ageMax;
  const regionMet = seeker.regionsAccepted.includes(other.region);
  const regionName = regionLabels[other.region];
  const practiceMet = seeker.practicesAccepted.includes(other.practice);
  const practiceName = prayerPracticeLabels[other.practice];
  const childrenMet = seeker.acceptsChildren || other.childrenCount === 0;
  const children = other.childrenCount === 0 ? 'sans enfant' : count(other.childrenCount, 'enfant', 'enfants');
  return [
    {
      criterion: 'age',
      side,
      met: ageMet,
      points: 0,
      reason: ageMet
        ? `Âge dans la tranche recherchée (${range(seeker.ageMin, seeker.ageMax)}) : ${age} ans`
        : `Âge hors de la tranche recherchée (${range(seeker.ageMin, seeker.ageMax)}) : ${age} ans`,
    },
    {
      criterion: 'region',
      side,
      met: regionMet,
      points: 0,
      reason: !regionMet
        ? `Région hors de celles recherchées (${regionName})`
        : seeker.regionsAccepted.length === everyRegion
          ? `Région : peu importe (${regionName})`
          : `Région parmi celles recherchées (${regionName})`,
    },
    {
      criterion: 'pratique',
      side,
      met: practiceMet,
      points: 0,
      reason: !practiceMet
        ? `Pratique en deçà de celle recherchée (${soughtPracticeLabels[seeker.soughtPractice]}) : ${practiceName}`
        : seeker.soughtPractice === 'indifferent'
          ? `Pratique : peu importe (${practiceName})`
          : `Pratique au moins égale à celle recherchée (${soughtPracticeLabels[seeker.soughtPractice]}) : ${practiceName}`,
    },
    {
      criterion: 'enfants',
      side,
      met: childrenMet,
      points: 0,
      reason: !childrenMet
        ? `N’accepte pas une personne ayant des enfants (${children})`
        : other.childrenCount === 0
          ? 'Sans enfant'
          : `Accepte une personne ayant des enfants (${children})`,
    },
  ];
}

/** Every hard criterion, both ways, with its reason; `a` is the member, `b` the candidate. */
export function hardCriteria(a: MatchProfile, b: MatchProfile, now: number): CriterionResult[] {
  const availableA = availableAt(a, now);
  const availableB = availableAt(b, now);
  const why = (p: MatchProfile) =>
    p.contractEndsAt !== null && p.contractEndsAt <= now
      ? unavailableReasonLabels['contrat-termine']
      : unavailableReasonLabels[p.unavailableReason ?? 'profil-incomplet'];
  const availability: CriterionResult = {
    criterion: 'disponibilite',
    side: 'mutuel',
    met: availableA && availableB,
    points: 0,
    reason:
      availableA && availableB
        ? 'Les deux membres peuvent être proposés'
        : !availableA
          ? `Membre indisponible : ${why(a)}`
          : `Candidat indisponible : ${why(b)}`,
  };
  const sexMet = a.gender !== b.gender;
  return [
    availability,
    { criterion: 'sexe', side: 'mutuel', met: sexMet, points: 0, reason: sexMet ? 'Sexe opposé' : 'Même sexe' },
    ...hardSide(a, b, 'membre', now),
    ...hardSide(b, a, 'candidat', now),
  ];
}

/** Whether `a` and `b` may be introduced: every hard criterion met, both ways (symmetric). */
export function hardCriteriaMet(a: MatchProfile, b: MatchProfile, now: number): boolean {
  return hardCriteria(a, b, now).every((result) => result.met);
}

/** `2·|2·age − min − max| ≤ max − min`: the age lies in the middle half of the range (integers only). */
export function nearMiddle(age: number, min: number, max: number): boolean {
  return 2 * Math.abs(2 * age - min - max) <= max - min;
}

function softSide(seeker: MatchProfile, other: MatchProfile, side: Side, now: number): CriterionResult[] {
  const family = seeker.familySituationsAccepted.includes(other.maritalStatus);
  const familyName = maritalStatusLabels[other.maritalStatus];
  const practiceName = prayerPracticeLabels[other.practice];
  const exactPractice = seeker.soughtPractice !== 'indifferent' && seeker.soughtPractice === other.practice;
  const acceptedPractice = seeker.practicesAccepted.includes(other.practice);
  const anyProfession = seeker.soughtProfessionalSituation === 'indifferent';
  const age = ageAt(other, now);
  const middle = nearMiddle(age, seeker.ageMin, seeker.ageMax);
  const points = criteria;
  return [
    {
      criterion: 'situation-familiale',
      side,
      met: family,
      points: family ? points['situation-familiale'].points : 0,
      reason: family ? `Situation familiale recherchée (${familyName})` : `Situation familiale hors de celles recherchées (${familyName})`,
    },
    {
      criterion: 'pratique-identique',
      side,
      met: exactPractice,
      points: exactPractice ? points['pratique-identique'].points : acceptedPractice ? 1 : 0,
      reason: exactPractice
        ? `Pratique exactement celle recherchée (${practiceName})`
        : `Pratique acceptée sans être exactement celle recherchée (${practiceName})`,
    },
    {
      criterion: 'situation-professionnelle',
      side,
      met: anyProfession,
      points: anyProfession ? points['situation-professionnelle'].points : 0,
      reason: anyProfession
        ? 'Situation professionnelle : peu importe'
        : `Situation professionnelle recherchée (${professionalSituationLabels[seeker.soughtProfessionalSituation]}) : à vérifier, profession déclarée « ${other.profession} »`,
    },
    {
      criterion: 'coeur-tranche-age',
      side,
      met: middle,
      points: middle ? points['coeur-tranche-age'].points : 0,
      reason: middle
        ? `Âge au cœur de la tranche recherchée (${age} ans pour ${range(seeker.ageMin, seeker.ageMax)})`
        : `Âge en bord de la tranche recherchée (${age} ans pour ${range(seeker.ageMin, seeker.ageMax)})`,
    },
  ];
}

/** The most points a pair can score. */
export const MAX_SCORE =
  2 *
    (criteria['situation-familiale'].points +
      criteria['pratique-identique'].points +
      criteria['situation-professionnelle'].points +
      criteria['coeur-tranche-age'].points) +
  criteria['meme-region'].points;

/**
 * The two-way soft score of a pair that meets the hard criteria, with one result per criterion
 * and side. The SQL ranking computes the same number (checked by tests/integration/matching.test.ts).
 */
export function softScore(a: MatchProfile, b: MatchProfile, now: number): { score: number; maxScore: number; reasons: CriterionResult[] } {
  const sameRegion = a.region === b.region;
  const reasons: CriterionResult[] = [
    {
      criterion: 'meme-region',
      side: 'mutuel',
      met: sameRegion,
      points: sameRegion ? criteria['meme-region'].points : 0,
      reason: sameRegion
        ? `Même région (${regionLabels[a.region]})`
        : `Régions différentes (${regionLabels[a.region]}, ${regionLabels[b.region]})`,
    },
    ...softSide(a, b, 'membre', now),
    ...softSide(b, a, 'candidat', now),
  ];
  return { score: reasons.reduce((sum, r) => sum + r.points, 0), maxScore: MAX_SCORE, reasons };
}

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
