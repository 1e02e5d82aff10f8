import { sql } from 'drizzle-orm';
import { type MatchingExecutor, writeMatchProfiles } from '#bff/matching/candidates.ts';
import { type MatchProfile, practiceLevels, profileFromOnboarding } from '#machines/matching/match-profile.ts';
import { type HomeRegion, homeRegions, samplePostcode } from '#machines/matching/regions.ts';
import type {
  MaritalStatus,
  PersonalInfo,
  ProfessionalSituation,
  Questionnaire,
  Region,
  RequirableCriterion,
  SoughtPractice,
  WantsChildren,
} from '#machines/onboarding/forms.ts';
import { emptyRecord, type Gender, type OnboardingRecord } from '#machines/onboarding/record.ts';

/**
 * A deterministic population of active members with steps 1-2 filled in, for the matching seed
 * script, its benchmark and its tests. Same seed, same members (mulberry32 PRNG), in bulk:
 * members rows and match profiles are written many per statement.
 */

/** mulberry32: a small, fast, seeded PRNG giving floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeedMember {
  id: string;
  email: string;
  gender: Gender;
  record: OnboardingRecord;
  profile: PersonalInfo;
  questionnaire: Questionnaire;
}

const FIRST_NAMES: Record<Gender, string[]> = {
  femme: ['Amina', 'Sarah', 'Myriam', 'Nadia', 'Leïla', 'Inès', 'Yasmine', 'Salma', 'Khadija', 'Imane'],
  homme: ['Youssef', 'Karim', 'Mehdi', 'Bilal', 'Ilyes', 'Samir', 'Adam', 'Nassim', 'Rayan', 'Omar'],
};
const PROFESSIONS = [
  'Infirmier(e)',
  'Enseignant(e)',
  'Ingénieur(e)',
  'Comptable',
  'Commerçant(e)',
  'Étudiant(e)',
  'Pharmacien(ne)',
  'Artisan',
];
/** Where members live, weighted as the agency's members would be (Île-de-France first). */
const REGION_WEIGHTS: [HomeRegion, number][] = homeRegions.map((region) => [
  region,
  region === 'ile-de-france' ? 30 : region === 'auvergne-rhone-alpes' || region === 'provence-alpes-cote-d-azur' ? 10 : 4,
]);

function uuidFrom(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((Math.floor(random() * 4) + 8) as number).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)] as T;
}

function weighted<T>(random: () => number, table: readonly [T, number][]): T {
  const total = table.reduce((sum, [, w]) => sum + w, 0);
  let roll = random() * total;
  for (const [value, w] of table) {
    roll -= w;
    if (roll < 0) return value;
  }
  return table[table.length - 1]?.[0] as T;
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `count` active members, alternately women and men, deterministic for a seed and a `now`. */
export function generatePopulation(count: number, seed: number, now: number): SeedMember[] {
  const random = mulberry32(seed);
  const year = 365.25 * 24 * 3600 * 1000;
  return Array.from({ length: count }, (_, i) => {
    const gender: Gender = i % 2 === 0 ? 'femme' : 'homme';
    const id = uuidFrom(random);
    const age = 20 + Math.floor(random() * 36);
    const birthDate = isoDay(now - age * year - Math.floor(random() * 360) * 24 * 3600 * 1000);
    const region = weighted(random, REGION_WEIGHTS);
    const maritalStatus = weighted<MaritalStatus>(random, [
      ['celibataire', 70],
      ['divorce', 25],
      ['veuf', 5],
    ]);
    const childrenCount = maritalStatus === 'celibataire' ? 0 : Math.floor(random() * 3);
    // Women usually seek older, men younger: ranges around the member's own age.
    const shift = gender === 'femme' ? 2 : -3;
    const soughtAgeMin = Math.max(18, age + shift - 2 - Math.floor(random() * 5));
    const soughtAgeMax = Math.min(99, Math.max(soughtAgeMin, age + shift + 2 + Math.floor(random() * 6)));
    const soughtRegions: Region[] =
      random() < 0.35 ? ['indifferent'] : [...new Set<Region>([region, ...(random() < 0.5 ? [weighted(random, REGION_WEIGHTS)] : [])])];
    const soughtPractice = weighted<SoughtPractice>(random, [
      ['cinq-prieres', 25],
      ['reguliere', 30],
      ['occasionnelle', 10],
      ['en-apprentissage', 5],
      ['indifferent', 30],
    ]);
    const soughtFamilySituations: MaritalStatus[] =
      random() < 0.5 ? ['celibataire', 'divorce', 'veuf'] : random() < 0.6 ? ['celibataire'] : ['celibataire', 'divorce'];
    // Decision 193: each criterion indispensable for some members, as an agency's members would mark them.
    const requiredShare: [RequirableCriterion, number][] = [
      ['age', 0.6],
      ['region', 0.35],
      ['pratique', 0.4],
      ['situation-familiale', 0.3],
      ['enfants', 0.3],
      ['desir-enfants', 0.2],
      ['demenagement', 0.1],
    ];
    const requiredCriteria = requiredShare.filter(([, share]) => random() < share).map(([criterion]) => criterion);
    const wantsChildren = weighted<WantsChildren>(random, [
      ['oui', 70],
      ['non', 10],
      ['peut-etre', 20],
    ]);
    const readyToRelocate = random() < 0.5;
    const signedAt = now - Math.floor(30 + random() * 120) * 24 * 3600 * 1000;
    const record: OnboardingRecord = {
      ...emptyRecord(id, `seed-${id}@exemple.invalid`, gender),
      selectedPlanId: random() < 0.5 ? 'plan_horizon_month' : 'plan_serenity_year',
      renouncedWithdrawalRight: false,
      profileCompleted: true,
      sensitiveDataConsentAt: new Date(signedAt - 20 * 24 * 3600 * 1000).toISOString(),
      questionnaireCompleted: true,
      formPersonnalInfoCompleted: true,
      applicationFeesPaid: true,
      preContractInfoAcknowledged: true,
      onboardingMeetingDateSelected: true,
      onboardingMeetingReserved: true,
      onboardingMeetingDate: new Date(signedAt - 2 * 24 * 3600 * 1000).toISOString(),
      onboardingMeetingDone: true,
      subscriptionContractFormCompleted: true,
      subscriptionDate: new Date(signedAt).toISOString(),
      subscriptionFeesPaid: true,
      matchmakingMeetingDone: true,
    };
    const profile: PersonalInfo = {
      firstName: pick(random, FIRST_NAMES[gender]),
      lastName: 'Exemple',
      birthDate,
      phone: '+33612345678',
      postcode: samplePostcode(region, i),
      city: 'Ville',
      maritalStatus,
      childrenCount,
      profession: pick(random, PROFESSIONS),
      prayerPractice: pick(random, practiceLevels),
      practiceDetails: '',
      sensitiveDataConsent: true,
    };
    const questionnaire: Questionnaire = {
      soughtPractice,
      soughtAgeMin,
      soughtAgeMax,
      soughtRegions,
      soughtFamilySituations,
      acceptsChildren: random() < 0.6,
      soughtProfessionalSituation: pick<ProfessionalSituation>(random, ['emploi-stable', 'en-activite-ou-etudes', 'indifferent']),
      wantsChildren,
      readyToRelocate,
      requiredCriteria,
      otherQualities: 'Sérieux, bienveillant et attaché à la famille.',
    };
    return { id, email: record.email, gender, record, profile, questionnaire };
  });
}

/** The match profile of a seeded member: derived as for any member, active for six more months. */
function seedProfile(member: SeedMember, now: number): MatchProfile {
  const derived = profileFromOnboarding({
    memberId: member.id,
    gender: member.gender,
    profile: member.profile,
    questionnaire: member.questionnaire,
  });
  if (!derived) throw new Error(`profil de démonstration invalide : ${member.id}`);
  return { ...derived, available: true, unavailableReason: null, contractEndsAt: now + 183 * 24 * 3600 * 1000 };
}

const INSERT_BATCH = 1_000;

/**
 * Inserts members rows (a bare row when only an id and a gender are given) in batches, one JSON
 * parameter per statement.
 */
export async function insertMembers(
  executor: MatchingExecutor,
  rows: readonly { id: string; email?: string; gender: Gender; onboarding?: unknown; profile?: unknown; questionnaire?: unknown }[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    const batch = rows.slice(start, start + INSERT_BATCH).map((row) => ({
      id: row.id,
      email: row.email ?? `${row.id}@seed.invalid`,
      gender: row.gender,
      onboarding: row.onboarding ?? emptyRecord(row.id, row.email ?? `${row.id}@seed.invalid`, row.gender),
      profile: row.profile ?? null,
      questionnaire: row.questionnaire ?? null,
    }));
    await executor.execute(sql`
      INSERT INTO members (id, email, gender, role, onboarding, profile, questionnaire)
      SELECT id, email, gender, 'member', onboarding, profile, questionnaire
      FROM jsonb_to_recordset(${JSON.stringify(batch)}::jsonb)
        AS r(id uuid, email text, gender text, onboarding jsonb, profile jsonb, questionnaire jsonb)`);
  }
}

/** Seeds `count` active members with their match profiles; returns them. */
export async function seedPopulation(executor: MatchingExecutor, count: number, seed: number, now: number): Promise<SeedMember[]> {
  const population = generatePopulation(count, seed, now);
  await insertMembers(
    executor,
    population.map((m) => ({
      id: m.id,
      email: m.email,
      gender: m.gender,
      onboarding: m.record,
      profile: m.profile,
      questionnaire: m.questionnaire,
    })),
  );
  await writeMatchProfiles(
    executor,
    population.map((m) => seedProfile(m, now)),
  );
  return population;
}
