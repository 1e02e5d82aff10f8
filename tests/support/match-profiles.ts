import fc from 'fast-check';
import type { ChildrenWish, MatchProfile, UnavailableReason } from '#machines/matching/match-profile.ts';
import { practiceLevels, practicesAcceptedFor, regionsAcceptedFor } from '#machines/matching/match-profile.ts';
import { type HomeRegion, homeRegions } from '#machines/matching/regions.ts';
import {
  type EducationLevel,
  type Language,
  languages,
  type Madhhab,
  type MaritalStatus,
  type ProfessionalSituation,
  type Region,
  type RequirableCriterion,
  requirableCriteria,
  type SoughtPractice,
} from '#machines/onboarding/forms.ts';

/**
 * Generated match profiles for the ranking's properties. Small domains (a few regions, ages
 * around 30) make pairs that meet every indispensable criterion common, so a population of a few
 * dozen has both eligible and ineligible candidates for each rule; each criterion is
 * indispensable for some members and only wished for others (decision 193).
 */

/** A fixed instant: ages are computed at it. */
export const MATCHING_NOW = Date.UTC(2026, 10, 25, 11, 0, 0);
const DAY = 24 * 3600 * 1000;

export interface ProfileDomain {
  regions: readonly HomeRegion[];
  ages: [number, number];
  /** Widest span of a sought age range. */
  span: number;
  /** Weight of "peu importe" (practice, regions) and of accepting children, against 1 for a choice. */
  lenient: number;
  /** Chance that a member marks each criterion as indispensable. */
  required: number;
}

/** Dense: about a fifth of the pairs of opposite sexes meet every hard criterion. */
export const smallDomain: ProfileDomain = {
  regions: ['ile-de-france', 'occitanie', 'bretagne'],
  ages: [26, 36],
  span: 20,
  lenient: 3,
  required: 0.3,
};
export const wideDomain: ProfileDomain = { regions: homeRegions, ages: [18, 70], span: 15, lenient: 0, required: 0.5 };

const maritalStatuses: MaritalStatus[] = ['celibataire', 'divorce', 'veuf'];
const soughtPractices: SoughtPractice[] = [...practiceLevels, 'indifferent'];
const professionalSituations: ProfessionalSituation[] = ['emploi-stable', 'en-activite-ou-etudes', 'indifferent'];
const wishes: ChildrenWish[] = ['oui', 'non', 'peut-etre', 'inconnu'];
const reasons: UnavailableReason[] = ['mise-en-relation-suspendue', 'desactive', 'pas-encore-actif', 'consentement-absent'];

function isoDay(year: number, month: number, day: number): string {
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function matchProfileArbitrary(domain: ProfileDomain = smallDomain, now = MATCHING_NOW): fc.Arbitrary<MatchProfile> {
  const year = new Date(now).getUTCFullYear();
  const [low, high] = domain.ages;
  return fc
    .record({
      memberId: fc.uuid({ version: 4 }),
      gender: fc.constantFrom('homme' as const, 'femme' as const),
      birthYear: fc.integer({ min: year - high - 1, max: year - low }),
      birthMonth: fc.integer({ min: 1, max: 12 }),
      birthDay: fc.integer({ min: 1, max: 29 }),
      region: fc.constantFrom(...domain.regions),
      practice: fc.constantFrom(...practiceLevels),
      maritalStatus: fc.constantFrom(...maritalStatuses),
      childrenCount: fc.oneof(
        { arbitrary: fc.constant(0), weight: 1 + domain.lenient },
        { arbitrary: fc.integer({ min: 0, max: 3 }), weight: 1 },
      ),
      profession: fc.constantFrom('Infirmière', 'Ingénieur', 'Étudiant', 'étudiante en droit', 'Sans emploi', 'En recherche d’emploi'),
      wantsChildren: fc.constantFrom(...wishes),
      readyToRelocate: fc.constantFrom(true, false, null),
      // Decision 208: a few languages, levels and schools, often none (answers saved before).
      languages: fc.uniqueArray(fc.constantFrom<Language>('francais', 'arabe', 'anglais', 'turc'), { maxLength: 3 }),
      educationLevel: fc.constantFrom<EducationLevel | null>(null, 'bac', 'bac-5'),
      heightCm: fc.constantFrom<number | null>(null, 165, 182),
      madhhab: fc.constantFrom<Madhhab | null>(null, 'malikite', 'hanafite', 'sans-preference'),
      // Decision 212: a wished height, often none, either bound alone, bounds on the generated heights.
      heightWish: fc.constantFrom<[number | null, number | null]>([null, null], [170, null], [null, 170], [165, 182], [175, 190]),
      practiceDetail: fc.constantFrom<'oui' | 'non' | 'parfois' | null>(null, 'oui', 'non', 'parfois'),
      // Percentiles, not doubles (fast-check's doubles lean to 0 and the bounds).
      requiredCriteria: fc.array(fc.integer({ min: 0, max: 99 }), {
        minLength: requirableCriteria.length,
        maxLength: requirableCriteria.length,
      }),
      ageFrom: fc.integer({ min: Math.max(18, low - 6), max: high }),
      ageSpan: fc.integer({ min: 0, max: domain.span }),
      soughtRegions: fc.oneof(
        { arbitrary: fc.constant<Region[]>(['indifferent']), weight: 1 + domain.lenient },
        {
          arbitrary: fc.uniqueArray(fc.constantFrom<Region>(...domain.regions), { minLength: 1, maxLength: domain.regions.length }),
          weight: 1,
        },
      ),
      soughtPractice: fc.oneof(
        { arbitrary: fc.constant<SoughtPractice>('indifferent'), weight: 2 * domain.lenient },
        { arbitrary: fc.constantFrom(...soughtPractices), weight: 1 },
      ),
      family: fc.uniqueArray(fc.constantFrom(...maritalStatuses), { minLength: 1, maxLength: 3 }),
      acceptsChildren: fc.oneof({ arbitrary: fc.constant(true), weight: domain.lenient }, { arbitrary: fc.boolean(), weight: 1 }),
      soughtProfessionalSituation: fc.constantFrom(...professionalSituations),
      unavailable: fc.oneof({ arbitrary: fc.constant(null), weight: 7 }, { arbitrary: fc.constantFrom(...reasons), weight: 1 }),
      contractEnd: fc.oneof(fc.constant(null), fc.integer({ min: -10, max: 180 })),
    })
    .map((g) => ({
      memberId: g.memberId,
      gender: g.gender,
      birthDate: isoDay(g.birthYear, g.birthMonth, g.birthMonth === 2 && g.birthYear % 4 !== 0 ? Math.min(g.birthDay, 28) : g.birthDay),
      region: g.region,
      practice: g.practice,
      maritalStatus: g.maritalStatus,
      childrenCount: g.childrenCount,
      profession: g.profession,
      wantsChildren: g.wantsChildren,
      readyToRelocate: g.readyToRelocate,
      languages: languages.filter((l) => g.languages.includes(l)),
      educationLevel: g.educationLevel,
      heightCm: g.heightCm,
      madhhab: g.madhhab,
      hijab: g.gender === 'femme' ? g.practiceDetail : null,
      beard: g.gender === 'homme' && g.practiceDetail !== 'parfois' ? g.practiceDetail : null,
      soughtHeightMin: g.heightWish[0],
      soughtHeightMax: g.heightWish[1],
      ageMin: g.ageFrom,
      ageMax: Math.min(99, g.ageFrom + g.ageSpan),
      regionsAccepted: regionsAcceptedFor(g.soughtRegions),
      soughtPractice: g.soughtPractice,
      practicesAccepted: practicesAcceptedFor(g.soughtPractice),
      familySituationsAccepted: maritalStatuses.filter((s) => g.family.includes(s)),
      acceptsChildren: g.acceptsChildren,
      soughtProfessionalSituation: g.soughtProfessionalSituation,
      requiredCriteria: requirableCriteria.filter(
        (_, i) => (g.requiredCriteria[i] ?? 100) < domain.required * 100,
      ) as RequirableCriterion[],
      available: g.unavailable === null,
      unavailableReason: g.unavailable,
      // Whole days from `now`, plus an hour, so no end falls exactly on `now`.
      contractEndsAt: g.contractEnd === null ? null : now + g.contractEnd * DAY + 3600 * 1000,
    }));
}
