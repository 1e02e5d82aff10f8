import * as v from 'valibot';
import {
  type Beard,
  type EducationLevel,
  educationLevels,
  type Language,
  type Hijab,
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
import { beardLabels, hijabLabels, maritalStatusLabels, prayerPracticeLabels } from '#machines/onboarding/labels.ts';
import { type Gender, genders } from '#machines/onboarding/record.ts';
import { type HomeRegion, homeRegions, regionOfPostcode } from '#machines/matching/regions.ts';
import { parisDayOf } from '#machines/paris-time.ts';

/**
 * A member's match profile (issue 22, decisions 113, 193 and 208): what steps 1-2 give to
 * matchmaking, whether the member can be proposed now, and the birth-date bounds of an age range
 * (the SQL's index). Pure, shared by the SPA and the BFF; the criteria judged on two profiles are
 * in criteria.ts.
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
  /** The hijab of a woman, the beard of a man (sensitive, under the consent): staff filter on them (decision 212). */
  hijab?: Hijab | null;
  beard?: Beard | null;
  /** The height wished for the person sought (step 2, either bound optional): a wish that ranks (decision 212). */
  soughtHeightMin?: number | null;
  soughtHeightMax?: number | null;
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
  // Decision 212: read for the staff's filters (sensitive: gone with the consent, like the school).
  hijab: v.fallback(v.optional(v.picklist(Object.keys(hijabLabels) as Hijab[])), undefined),
  beard: v.fallback(v.optional(v.picklist(Object.keys(beardLabels) as Beard[])), undefined),
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
    hijab: p.hijab ?? null,
    beard: p.beard ?? null,
    soughtHeightMin: q.soughtHeightMin ?? null,
    soughtHeightMax: q.soughtHeightMax ?? null,
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
