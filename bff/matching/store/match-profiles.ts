// Members' match profiles as stored in `match_profiles` (migrations 0014, 0035, 0049 and 0053), and the member rows they derive from.
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import type { MatchProfile, UnavailableReason } from '#machines/matching/match-profile.ts';
import type { HomeRegion } from '#machines/matching/regions.ts';
import type {
  Beard,
  EducationLevel,
  Hijab,
  Language,
  Madhhab,
  MaritalStatus,
  PrayerPractice,
  RequirableCriterion,
} from '#machines/onboarding/forms.ts';

export type MatchingExecutor = Pick<Db, 'insert' | 'select' | 'update' | 'delete' | 'execute'>;

export interface ProfileRow extends Record<string, unknown> {
  member_id: string;
  gender: string;
  birth_date: string;
  region: string;
  practice: string;
  marital_status: string;
  children_count: number;
  profession: string;
  age_min: number;
  age_max: number;
  regions_accepted: string[];
  sought_practice: string;
  practices_accepted: string[];
  family_situations_accepted: string[];
  accepts_children: boolean;
  sought_professional_situation: string;
  wants_children: string;
  ready_to_relocate: boolean | null;
  languages: string[];
  education_level: string | null;
  height_cm: number | null;
  madhhab: string | null;
  sought_height_min: number | null;
  sought_height_max: number | null;
  hijab: string | null;
  beard: string | null;
  required_criteria: string[];
  available: boolean;
  unavailable_reason: string | null;
  contract_ends_ms: number | null;
}

const PROFILE_COLUMNS_TEXT = `member_id::text AS member_id, gender, birth_date::text AS birth_date, region, practice, marital_status,
  children_count::int AS children_count, profession, age_min::int AS age_min, age_max::int AS age_max, regions_accepted,
  sought_practice, practices_accepted, family_situations_accepted, accepts_children, sought_professional_situation,
  wants_children, ready_to_relocate, languages, education_level, height_cm::int AS height_cm, madhhab,
  sought_height_min::int AS sought_height_min, sought_height_max::int AS sought_height_max, hijab, beard, required_criteria, available, unavailable_reason, (extract(epoch FROM contract_ends_at) * 1000)::float8 AS contract_ends_ms`;
export const PROFILE_COLUMNS = sql.raw(PROFILE_COLUMNS_TEXT);

function numberOrNull(value: number | null | undefined): number | null {
  return value === null || value === undefined ? null : Number(value);
}

export function profileOf(row: ProfileRow): MatchProfile {
  return {
    memberId: row.member_id,
    gender: row.gender as MatchProfile['gender'],
    birthDate: row.birth_date,
    region: row.region as HomeRegion,
    practice: row.practice as PrayerPractice,
    maritalStatus: row.marital_status as MaritalStatus,
    childrenCount: Number(row.children_count),
    profession: row.profession,
    wantsChildren: row.wants_children as MatchProfile['wantsChildren'],
    readyToRelocate: row.ready_to_relocate,
    languages: (row.languages ?? []) as Language[],
    educationLevel: (row.education_level ?? null) as EducationLevel | null,
    heightCm: numberOrNull(row.height_cm),
    madhhab: (row.madhhab ?? null) as Madhhab | null,
    hijab: (row.hijab ?? null) as Hijab | null,
    beard: (row.beard ?? null) as Beard | null,
    soughtHeightMin: numberOrNull(row.sought_height_min),
    soughtHeightMax: numberOrNull(row.sought_height_max),
    ageMin: Number(row.age_min),
    ageMax: Number(row.age_max),
    regionsAccepted: row.regions_accepted as HomeRegion[],
    soughtPractice: row.sought_practice as MatchProfile['soughtPractice'],
    practicesAccepted: row.practices_accepted as PrayerPractice[],
    familySituationsAccepted: row.family_situations_accepted as MaritalStatus[],
    acceptsChildren: row.accepts_children,
    soughtProfessionalSituation: row.sought_professional_situation as MatchProfile['soughtProfessionalSituation'],
    requiredCriteria: row.required_criteria as RequirableCriterion[],
    available: row.available,
    unavailableReason: row.unavailable_reason as UnavailableReason | null,
    contractEndsAt: row.contract_ends_ms === null ? null : Number(row.contract_ends_ms),
  };
}

export async function rowsOf<Row>(executor: MatchingExecutor, query: SQL): Promise<Row[]> {
  return ((await executor.execute(query)) as unknown as { rows: Row[] }).rows;
}

/** A PostgreSQL array literal of codes or ids, passed as one text parameter (drizzle spreads JS arrays). */
export function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`;
}

/** Rows written at once by `writeMatchProfiles` (one parameter of JSON each). */
const WRITE_BATCH = 1_000;

/** Inserts or replaces match profiles, many rows per statement (upsert, seeds, tests). */
export async function writeMatchProfiles(executor: MatchingExecutor, profiles: readonly MatchProfile[]): Promise<void> {
  for (let start = 0; start < profiles.length; start += WRITE_BATCH) {
    const batch = profiles.slice(start, start + WRITE_BATCH).map((p) => ({
      member_id: p.memberId,
      gender: p.gender,
      birth_date: p.birthDate,
      region: p.region,
      practice: p.practice,
      marital_status: p.maritalStatus,
      children_count: p.childrenCount,
      profession: p.profession,
      age_min: p.ageMin,
      age_max: p.ageMax,
      regions_accepted: arrayLiteral(p.regionsAccepted),
      sought_practice: p.soughtPractice,
      practices_accepted: arrayLiteral(p.practicesAccepted),
      family_situations_accepted: arrayLiteral(p.familySituationsAccepted),
      accepts_children: p.acceptsChildren,
      sought_professional_situation: p.soughtProfessionalSituation,
      wants_children: p.wantsChildren,
      ready_to_relocate: p.readyToRelocate,
      languages: arrayLiteral(p.languages ?? []),
      education_level: p.educationLevel ?? null,
      height_cm: p.heightCm ?? null,
      madhhab: p.madhhab ?? null,
      sought_height_min: p.soughtHeightMin ?? null,
      sought_height_max: p.soughtHeightMax ?? null,
      hijab: p.hijab ?? null,
      beard: p.beard ?? null,
      required_criteria: arrayLiteral(p.requiredCriteria),
      available: p.available,
      unavailable_reason: p.unavailableReason,
      contract_ends_at: p.contractEndsAt === null ? null : new Date(p.contractEndsAt).toISOString(),
    }));
    await executor.execute(sql`
      INSERT INTO match_profiles (member_id, gender, birth_date, region, practice, marital_status, children_count, profession,
        age_min, age_max, regions_accepted, sought_practice, practices_accepted, family_situations_accepted, accepts_children,
        sought_professional_situation, wants_children, ready_to_relocate, languages, education_level, height_cm, madhhab,
        sought_height_min, sought_height_max, hijab, beard, required_criteria, available, unavailable_reason, contract_ends_at, updated_at)
      SELECT member_id, gender, birth_date, region, practice, marital_status, children_count, profession,
        age_min, age_max, regions_accepted, sought_practice, practices_accepted, family_situations_accepted, accepts_children,
        sought_professional_situation, wants_children, ready_to_relocate, languages, education_level, height_cm, madhhab,
        sought_height_min, sought_height_max, hijab, beard, required_criteria, available, unavailable_reason, contract_ends_at, now()
      FROM jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) AS r(member_id uuid, gender text, birth_date date, region text,
        practice text, marital_status text, children_count smallint, profession text, age_min smallint, age_max smallint,
        regions_accepted text[], sought_practice text, practices_accepted text[], family_situations_accepted text[],
        accepts_children boolean, sought_professional_situation text, wants_children text, ready_to_relocate boolean,
        languages text[], education_level text, height_cm smallint, madhhab text, sought_height_min smallint, sought_height_max smallint,
        hijab text, beard text, required_criteria text[], available boolean, unavailable_reason text, contract_ends_at timestamptz)
      ON CONFLICT (member_id) DO UPDATE SET
        gender = EXCLUDED.gender, birth_date = EXCLUDED.birth_date, region = EXCLUDED.region, practice = EXCLUDED.practice,
        marital_status = EXCLUDED.marital_status, children_count = EXCLUDED.children_count, profession = EXCLUDED.profession,
        age_min = EXCLUDED.age_min, age_max = EXCLUDED.age_max, regions_accepted = EXCLUDED.regions_accepted,
        sought_practice = EXCLUDED.sought_practice, practices_accepted = EXCLUDED.practices_accepted,
        family_situations_accepted = EXCLUDED.family_situations_accepted, accepts_children = EXCLUDED.accepts_children,
        sought_professional_situation = EXCLUDED.sought_professional_situation, wants_children = EXCLUDED.wants_children,
        ready_to_relocate = EXCLUDED.ready_to_relocate, languages = EXCLUDED.languages, education_level = EXCLUDED.education_level,
        height_cm = EXCLUDED.height_cm, madhhab = EXCLUDED.madhhab, sought_height_min = EXCLUDED.sought_height_min,
        sought_height_max = EXCLUDED.sought_height_max, hijab = EXCLUDED.hijab, beard = EXCLUDED.beard, required_criteria = EXCLUDED.required_criteria, available = EXCLUDED.available,
        unavailable_reason = EXCLUDED.unavailable_reason, contract_ends_at = EXCLUDED.contract_ends_at, updated_at = now()`);
  }
}

/** A member's stored match profile, or null. */
export async function matchProfileOf(executor: MatchingExecutor, memberId: string): Promise<MatchProfile | null> {
  const [row] = await rowsOf<ProfileRow>(executor, sql`SELECT ${PROFILE_COLUMNS} FROM match_profiles WHERE member_id = ${memberId}::uuid`);
  return row ? profileOf(row) : null;
}

/** Deletes the member's match profile (none to keep). */
export async function deleteMatchProfile(executor: MatchingExecutor, memberId: string): Promise<void> {
  await executor.execute(sql`DELETE FROM match_profiles WHERE member_id = ${memberId}::uuid`);
}

/**
 * The member's stored match profile as one JSON column of another statement (the onboarding
 * event's first SELECT on `members`, decision 129): read back with `matchProfileFromJson`.
 */
export const STORED_MATCH_PROFILE_SQL = sql.raw(
  `(SELECT row_to_json(p)::text FROM (SELECT ${PROFILE_COLUMNS_TEXT} FROM match_profiles WHERE member_id = "members"."id") p)`,
);

/** The member's row a match profile derives from: steps 1-2, state, and the two privacy instants in ms. */
export interface MatchProfileSourceRow {
  id: string;
  gender: string;
  role: string;
  onboarding: unknown;
  profile: unknown;
  questionnaire: unknown;
  disabled: boolean;
  paused_ms: number | null;
  erased_ms: number | null;
}

export async function matchProfileSourceRow(executor: MatchingExecutor, memberId: string): Promise<MatchProfileSourceRow | undefined> {
  const [row] = await rowsOf<MatchProfileSourceRow>(
    executor,
    sql`SELECT id::text AS id, gender, role, onboarding, profile, questionnaire, disabled,
      (extract(epoch FROM matchmaking_paused_at) * 1000)::float8 AS paused_ms, (extract(epoch FROM erased_at) * 1000)::float8 AS erased_ms
      FROM members WHERE id = ${memberId}::uuid`,
  );
  return row;
}

/** Members with steps 1-2 but no available profile, not disabled, paused or erased (the refresh pass). */
export async function membersWaitingForProfile(db: Db): Promise<string[]> {
  const result = (await db.execute(sql`
    SELECT m.id::text AS id FROM members m
    LEFT JOIN match_profiles p ON p.member_id = m.id
    WHERE m.role = 'member' AND m.erased_at IS NULL AND NOT m.disabled AND m.matchmaking_paused_at IS NULL
      AND m.profile IS NOT NULL AND m.questionnaire IS NOT NULL
      AND (p.member_id IS NULL OR NOT p.available)`)) as unknown as { rows: { id: string }[] };
  return result.rows.map((r) => r.id);
}
