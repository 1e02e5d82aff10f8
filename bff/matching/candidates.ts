import { type SQL, sql } from 'drizzle-orm';
import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import { termEndsAtMs } from '#machines/onboarding/periods.ts';
import {
  affinities,
  availableAt,
  birthDateBounds,
  brokenRequired,
  type CriterionId,
  type CriterionResult,
  criteria,
  criterionIds,
  MAX_SCORE,
  type MatchProfile,
  NO_ACTIVITY_PATTERN,
  occupationOf,
  pairCriteria,
  profileFromOnboarding,
  STUDIES_PATTERN,
  type UnavailableReason,
  unavailableReasonOf,
} from '#machines/matching/criteria.ts';
import { type HomeRegion, homeRegions } from '#machines/matching/regions.ts';
import {
  ageOn,
  type EducationLevel,
  type Language,
  type Madhhab,
  type MaritalStatus,
  type PrayerPractice,
  type RequirableCriterion,
  requirableCriteria,
} from '#machines/onboarding/forms.ts';
import { maritalStatusLabels } from '#machines/onboarding/labels.ts';
import { onboardingRecordSchema } from '#machines/onboarding/record.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';

/**
 * Candidates for a member (issue 22, staff side). Profiles live in `match_profiles` (migrations
 * 0014 and 0035), derived from steps 1-2 by `upsertMatchProfile`. `rankCandidates` evaluates every
 * indispensable criterion of machines/matching/criteria.ts, both ways, in one SQL statement on
 * indexed columns (the pool index on gender and birth date), scores every criterion in the same
 * statement, and reads back only the `limit` best rows; the verdicts of those rows are then
 * written by the pure functions, which the tests hold the SQL to (decisions 113 and 193).
 */

export type MatchingExecutor = Pick<Db, 'insert' | 'select' | 'update' | 'delete' | 'execute'>;

interface ProfileRow extends Record<string, unknown> {
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
  required_criteria: string[];
  available: boolean;
  unavailable_reason: string | null;
  contract_ends_ms: number | null;
}

const PROFILE_COLUMNS_TEXT = `member_id::text AS member_id, gender, birth_date::text AS birth_date, region, practice, marital_status,
  children_count::int AS children_count, profession, age_min::int AS age_min, age_max::int AS age_max, regions_accepted,
  sought_practice, practices_accepted, family_situations_accepted, accepts_children, sought_professional_situation,
  wants_children, ready_to_relocate, languages, education_level, height_cm::int AS height_cm, madhhab, required_criteria, available, unavailable_reason, (extract(epoch FROM contract_ends_at) * 1000)::float8 AS contract_ends_ms`;
const PROFILE_COLUMNS = sql.raw(PROFILE_COLUMNS_TEXT);

function profileOf(row: ProfileRow): MatchProfile {
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
    heightCm: row.height_cm === null || row.height_cm === undefined ? null : Number(row.height_cm),
    madhhab: (row.madhhab ?? null) as Madhhab | null,
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

async function rowsOf<Row>(executor: MatchingExecutor, query: SQL): Promise<Row[]> {
  return ((await executor.execute(query)) as unknown as { rows: Row[] }).rows;
}

/** A PostgreSQL array literal of codes or ids, passed as one text parameter (drizzle spreads JS arrays). */
function arrayLiteral(values: readonly string[]): string {
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
      required_criteria: arrayLiteral(p.requiredCriteria),
      available: p.available,
      unavailable_reason: p.unavailableReason,
      contract_ends_at: p.contractEndsAt === null ? null : new Date(p.contractEndsAt).toISOString(),
    }));
    await executor.execute(sql`
      INSERT INTO match_profiles (member_id, gender, birth_date, region, practice, marital_status, children_count, profession,
        age_min, age_max, regions_accepted, sought_practice, practices_accepted, family_situations_accepted, accepts_children,
        sought_professional_situation, wants_children, ready_to_relocate, languages, education_level, height_cm, madhhab,
        required_criteria, available, unavailable_reason, contract_ends_at, updated_at)
      SELECT member_id, gender, birth_date, region, practice, marital_status, children_count, profession,
        age_min, age_max, regions_accepted, sought_practice, practices_accepted, family_situations_accepted, accepts_children,
        sought_professional_situation, wants_children, ready_to_relocate, languages, education_level, height_cm, madhhab,
        required_criteria, available, unavailable_reason, contract_ends_at, now()
      FROM jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) AS r(member_id uuid, gender text, birth_date date, region text,
        practice text, marital_status text, children_count smallint, profession text, age_min smallint, age_max smallint,
        regions_accepted text[], sought_practice text, practices_accepted text[], family_situations_accepted text[],
        accepts_children boolean, sought_professional_situation text, wants_children text, ready_to_relocate boolean,
        languages text[], education_level text, height_cm smallint, madhhab text, required_criteria text[], available boolean, unavailable_reason text, contract_ends_at timestamptz)
      ON CONFLICT (member_id) DO UPDATE SET
        gender = EXCLUDED.gender, birth_date = EXCLUDED.birth_date, region = EXCLUDED.region, practice = EXCLUDED.practice,
        marital_status = EXCLUDED.marital_status, children_count = EXCLUDED.children_count, profession = EXCLUDED.profession,
        age_min = EXCLUDED.age_min, age_max = EXCLUDED.age_max, regions_accepted = EXCLUDED.regions_accepted,
        sought_practice = EXCLUDED.sought_practice, practices_accepted = EXCLUDED.practices_accepted,
        family_situations_accepted = EXCLUDED.family_situations_accepted, accepts_children = EXCLUDED.accepts_children,
        sought_professional_situation = EXCLUDED.sought_professional_situation, wants_children = EXCLUDED.wants_children,
        ready_to_relocate = EXCLUDED.ready_to_relocate, languages = EXCLUDED.languages, education_level = EXCLUDED.education_level,
        height_cm = EXCLUDED.height_cm, madhhab = EXCLUDED.madhhab, required_criteria = EXCLUDED.required_criteria, available = EXCLUDED.available,
        unavailable_reason = EXCLUDED.unavailable_reason, contract_ends_at = EXCLUDED.contract_ends_at, updated_at = now()`);
  }
}

/** A member's stored match profile, or null. */
export async function matchProfileOf(executor: MatchingExecutor, memberId: string): Promise<MatchProfile | null> {
  const [row] = await rowsOf<ProfileRow>(executor, sql`SELECT ${PROFILE_COLUMNS} FROM match_profiles WHERE member_id = ${memberId}::uuid`);
  return row ? profileOf(row) : null;
}

/** What a member's match profile is derived from: the member's row and its two privacy columns. */
export interface MatchProfileSource {
  id: string;
  gender: string;
  role: string;
  onboarding: unknown;
  profile: unknown;
  questionnaire: unknown;
  disabled: boolean;
  /** `matchmaking_paused_at` and `erased_at`, in ms (null when not set). */
  pausedMs: number | null;
  erasedMs: number | null;
}

/**
 * The member's match profile from steps 1-2 and their state at `now`, or null when there is none
 * to keep (not a member, erased, steps 1-2 missing or unreadable). Pure: `upsertMatchProfile` and
 * the onboarding event (from the row its UPDATE returned, decision 129) both derive through it.
 */
export function deriveMatchProfile(source: MatchProfileSource, now: number): MatchProfile | null {
  if (source.role !== 'member' || source.erasedMs !== null) return null;
  const derived = profileFromOnboarding({
    memberId: source.id,
    gender: source.gender,
    profile: source.profile,
    questionnaire: source.questionnaire,
  });
  if (!derived) return null;
  const record = v.safeParse(onboardingRecordSchema, source.onboarding);
  if (!record.success) return null;
  const stateValue = stateFromRecord(record.output, now);
  const state = typeof stateValue === 'string' ? stateValue : (Object.keys(stateValue)[0] ?? '');
  // The one end of the term (decision 118): signature + the plan's months, as the chart reads it.
  const contractEndsAt = state === 'membre-actif' || state === 'contrat-termine' ? termEndsAtMs(record.output) : null;
  const unavailableReason = unavailableReasonOf({
    state,
    hasProfile: true,
    sensitiveDataConsentAt: record.output.sensitiveDataConsentAt,
    matchmakingPausedAt: source.pausedMs,
    disabled: source.disabled || record.output.disabled,
    erasedAt: null,
    contractEndsAt,
    now,
  });
  return { ...derived, available: unavailableReason === null, unavailableReason, contractEndsAt };
}

/** Stores a derived profile, or deletes the member's when there is none to keep. */
export async function storeMatchProfile(executor: MatchingExecutor, memberId: string, profile: MatchProfile | null): Promise<void> {
  if (profile) await writeMatchProfiles(executor, [profile]);
  else await executor.execute(sql`DELETE FROM match_profiles WHERE member_id = ${memberId}::uuid`);
}

/**
 * The member's stored match profile as one JSON column of another statement (the onboarding
 * event's first SELECT on `members`, decision 129): read back with `matchProfileFromJson`.
 */
export const STORED_MATCH_PROFILE_SQL = sql.raw(
  `(SELECT row_to_json(p)::text FROM (SELECT ${PROFILE_COLUMNS_TEXT} FROM match_profiles WHERE member_id = "members"."id") p)`,
);

/** The value of `STORED_MATCH_PROFILE_SQL` (its JSON text; null when the member has none). */
export function matchProfileFromJson(value: unknown): MatchProfile | null {
  const row: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return row && typeof row === 'object' ? profileOf(row as ProfileRow) : null;
}

/** Two profiles say the same (what `writeMatchProfiles` stores): nothing to write. */
export function sameMatchProfile(a: MatchProfile | null, b: MatchProfile | null): boolean {
  if (a === null || b === null) return a === b;
  for (const key of Object.keys(a) as (keyof MatchProfile)[]) {
    const x = a[key];
    const y = b[key];
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length || x.some((item, i) => item !== y[i])) return false;
    } else if (x !== y) return false;
  }
  return Object.keys(b).length === Object.keys(a).length;
}

/**
 * Derives the member's match profile from steps 1-2 and their state, and stores it (or deletes
 * it when steps 1-2 are missing). To be called after every change of the member's profile,
 * questionnaire, state or consent; the trigger of migration 0014 only ever withdraws a member.
 */
export async function upsertMatchProfile(
  executor: MatchingExecutor,
  memberId: string,
  now: number = Date.now(),
): Promise<MatchProfile | null> {
  const [row] = await rowsOf<{
    id: string;
    gender: string;
    role: string;
    onboarding: unknown;
    profile: unknown;
    questionnaire: unknown;
    disabled: boolean;
    paused_ms: number | null;
    erased_ms: number | null;
  }>(
    executor,
    sql`SELECT id::text AS id, gender, role, onboarding, profile, questionnaire, disabled,
      (extract(epoch FROM matchmaking_paused_at) * 1000)::float8 AS paused_ms, (extract(epoch FROM erased_at) * 1000)::float8 AS erased_ms
      FROM members WHERE id = ${memberId}::uuid`,
  );
  const profile = row
    ? deriveMatchProfile(
        {
          ...row,
          pausedMs: row.paused_ms === null ? null : Number(row.paused_ms),
          erasedMs: row.erased_ms === null ? null : Number(row.erased_ms),
        },
        now,
      )
    : null;
  await storeMatchProfile(executor, memberId, profile);
  return profile;
}

// ---------------------------------------------------------------------------
// Ranking

/** Staff's filters: they only narrow the candidates the indispensable criteria allow. */
export interface CandidateFilters {
  regions?: readonly HomeRegion[];
  practices?: readonly PrayerPractice[];
  maritalStatuses?: readonly MaritalStatus[];
  ageMin?: number;
  ageMax?: number;
  withoutChildren?: boolean;
  /** Only candidates with at least one child (decision 201). */
  withChildren?: boolean;
  /** Only candidates followed by this counsellor, or (`null`) by none (decision 201). */
  counsellorId?: string | null;
  /** Only candidates who speak one of these languages (decision 208). */
  languages?: readonly Language[];
  /** Only candidates who follow one of these schools of thought (decision 208). */
  madhhabs?: readonly Madhhab[];
  minScore?: number;
}

export interface RankOptions {
  /** How many candidates at most (default 20, at most 200; one more to know whether a next page exists). */
  limit?: number;
  /** How many of the best to skip (paging, decision 201). */
  offset?: number;
  filters?: CandidateFilters;
  /** Members never to propose: already proposed, declined, in an open introduction. */
  excludeMemberIds?: readonly string[];
  /** Only those who break an indispensable criterion of either side (staff's exceptions, decision 193). */
  outsideRequired?: boolean;
  now?: number;
}

interface RankedCandidate {
  memberId: string;
  score: number;
  maxScore: number;
  profile: MatchProfile;
  /** Every criterion, both ways: the member's judged on the candidate, then the candidate's on the member. */
  reasons: CriterionResult[];
  /** The indispensable criteria broken: the member's, the candidate's (empty both ways in the ranked list). */
  broken: { membre: RequirableCriterion[]; candidat: RequirableCriterion[] };
}

export interface Ranking {
  /** The member's profile, or null without one (steps 1-2 not done). */
  member: MatchProfile | null;
  /** Empty when the member cannot be proposed (see `member.unavailableReason`). */
  candidates: RankedCandidate[];
}

export const DEFAULT_CANDIDATES = 20;
export const MAX_CANDIDATES = 200;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Predicate = SQL | boolean;

/** Every family situation accepted: « peu importe » (criteria.ts `judge`). */
const MARITAL_STATUSES = Object.keys(maritalStatusLabels).length;

function predicateSql(p: Predicate): SQL {
  return typeof p === 'boolean' ? sql.raw(p ? 'true' : 'false') : p;
}

/**
 * `me`'s criterion judged on the candidate `c`: met (verdict `oui` or `indifferent` of
 * criteria.ts `judge`) as SQL over the candidate's columns, or a constant when it does not depend
 * on the candidate.
 */
function mineMet(criterion: CriterionId, me: MatchProfile, now: number): Predicate {
  switch (criterion) {
    case 'age': {
      const bounds = birthDateBounds(me.ageMin, me.ageMax, now);
      return sql`(c.birth_date > ${bounds.after}::date AND c.birth_date <= ${bounds.onOrBefore}::date)`;
    }
    case 'region':
      return me.regionsAccepted.length === homeRegions.length ? true : sql`c.region = ANY(${arrayLiteral(me.regionsAccepted)}::text[])`;
    case 'pratique':
      return me.soughtPractice === 'indifferent' ? true : sql`c.practice = ANY(${arrayLiteral(me.practicesAccepted)}::text[])`;
    case 'situation-familiale':
      return me.familySituationsAccepted.length === MARITAL_STATUSES
        ? true
        : sql`c.marital_status = ANY(${arrayLiteral(me.familySituationsAccepted)}::text[])`;
    case 'enfants':
      return me.acceptsChildren ? true : sql`c.children_count = 0`;
    case 'desir-enfants':
      return me.wantsChildren === 'oui' || me.wantsChildren === 'non' ? sql`c.wants_children = ${me.wantsChildren}` : true;
    case 'demenagement':
      return me.readyToRelocate !== false ? true : sql`(c.region = ${me.region} OR c.ready_to_relocate IS TRUE)`;
    case 'situation-professionnelle':
      if (me.soughtProfessionalSituation === 'indifferent') return true;
      // A stable job is never proven by a free-text profession: `a-verifier` or `non`, never met.
      if (me.soughtProfessionalSituation === 'emploi-stable') return false;
      return sql`NOT (c.profession ~* ${NO_ACTIVITY_PATTERN} AND NOT c.profession ~* ${STUDIES_PATTERN})`;
  }
}

/** The candidate's criterion judged on `me`, as SQL over the candidate's columns (or a constant). */
function theirsMet(criterion: CriterionId, me: MatchProfile, myAge: number): Predicate {
  switch (criterion) {
    case 'age':
      return sql`(c.age_min <= ${myAge}::int AND c.age_max >= ${myAge}::int)`;
    case 'region':
      return sql`c.regions_accepted @> ${arrayLiteral([me.region])}::text[]`;
    case 'pratique':
      return sql`c.practices_accepted @> ${arrayLiteral([me.practice])}::text[]`;
    case 'situation-familiale':
      return sql`c.family_situations_accepted @> ${arrayLiteral([me.maritalStatus])}::text[]`;
    case 'enfants':
      return me.childrenCount === 0 ? true : sql`c.accepts_children`;
    case 'desir-enfants':
      return me.wantsChildren === 'oui' || me.wantsChildren === 'non'
        ? sql`c.wants_children IN ('peut-etre', 'inconnu', ${me.wantsChildren})`
        : sql`c.wants_children IN ('peut-etre', 'inconnu')`;
    case 'demenagement':
      return me.readyToRelocate === true ? true : sql`(c.ready_to_relocate IS NOT FALSE OR c.region = ${me.region})`;
    case 'situation-professionnelle':
      return occupationOf(me.profession) === 'sans-activite'
        ? sql`c.sought_professional_situation = 'indifferent'`
        : sql`c.sought_professional_situation IN ('indifferent', 'en-activite-ou-etudes')`;
  }
}

/**
 * Every indispensable criterion of both sides as SQL conditions (criteria.ts `brokenRequired`
 * empty both ways): the member's own, known now, on the candidate's columns; the candidate's,
 * each where the candidate marked it (`required_criteria`).
 */
function requiredSql(me: MatchProfile, myAge: number, now: number): SQL[] {
  const conditions: SQL[] = [];
  for (const criterion of me.requiredCriteria) {
    const met = mineMet(criterion, me, now);
    if (met !== true) conditions.push(predicateSql(met));
  }
  for (const criterion of requirableCriteria) {
    const met = theirsMet(criterion, me, myAge);
    if (met !== true) conditions.push(sql`(NOT (c.required_criteria @> ${arrayLiteral([criterion])}::text[]) OR ${predicateSql(met)})`);
  }
  return conditions;
}

/** The two-way score of candidate `c` for member `me`: criteria.ts `pairScore`, term by term. */
function scoreSql(me: MatchProfile, myAge: number, now: number): SQL {
  const terms: SQL[] = [];
  let constant = 0;
  for (const criterion of criterionIds) {
    const points = criteria[criterion].points;
    for (const met of [mineMet(criterion, me, now), theirsMet(criterion, me, myAge)]) {
      if (met === true) constant += points;
      else if (met !== false) terms.push(sql`CASE WHEN ${met} THEN ${sql.raw(String(points))} ELSE 0 END`);
    }
  }
  // The affinities (criteria.ts `affinityPoints`): once per pair, only where the member answered.
  const mine = me.languages ?? [];
  if (mine.length > 0)
    terms.push(sql`CASE WHEN c.languages && ${arrayLiteral(mine)}::text[] THEN ${sql.raw(String(affinities.langue.points))} ELSE 0 END`);
  if (me.educationLevel)
    terms.push(sql`CASE WHEN c.education_level = ${me.educationLevel} THEN ${sql.raw(String(affinities.etudes.points))} ELSE 0 END`);
  if (me.madhhab && me.madhhab !== 'sans-preference')
    terms.push(sql`CASE WHEN c.madhhab = ${me.madhhab} THEN ${sql.raw(String(affinities.madhhab.points))} ELSE 0 END`);
  if (terms.length === 0) return sql.raw(String(constant));
  return sql`(${sql.raw(String(constant))} + ${sql.join(terms, sql` + `)})`;
}

/**
 * Ranks the candidates for a member: available members of the other sex, no indispensable
 * criterion of either side broken, not excluded, within staff's filters, best two-way score
 * first (ties by member id), at most `limit`. With `outsideRequired`, the other way round: those
 * that break at least one indispensable criterion (staff may still propose them, with a reason
 * written to the member: decision 193).
 */
export async function rankCandidates(executor: MatchingExecutor, memberId: string, options: RankOptions = {}): Promise<Ranking> {
  const now = options.now ?? Date.now();
  const me = await matchProfileOf(executor, memberId);
  if (!me || !availableAt(me, now)) return { member: me, candidates: [] };
  const query = candidatesSql(me, { ...options, now });
  if (!query) return { member: me, candidates: [] };
  const rows = await rowsOf<ProfileRow & { score: number }>(executor, query);
  const candidates = rows.map((row) => {
    const profile = profileOf(row);
    const broken = brokenRequired(me, profile, now);
    return {
      memberId: profile.memberId,
      score: Number(row.score),
      maxScore: MAX_SCORE,
      profile,
      reasons: pairCriteria(me, profile, now),
      broken: { membre: broken.a, candidat: broken.b },
    };
  });
  return { member: me, candidates };
}

/** The one statement of `rankCandidates` for an available member, or null when nobody can be in it. */
function candidatesSql(me: MatchProfile, options: RankOptions & { now: number }): SQL | null {
  const now = options.now;
  const limit = Math.max(1, Math.min(MAX_CANDIDATES + 1, Math.floor(options.limit ?? DEFAULT_CANDIDATES)));
  const offset = Math.max(0, Math.floor(options.offset ?? 0));
  const filters = options.filters ?? {};
  const myAge = ageOn(me.birthDate, now);
  if (myAge === null) return null;
  const excluded = (options.excludeMemberIds ?? []).filter((id) => UUID.test(id));

  const conditions: SQL[] = [
    sql`c.available`,
    sql`c.gender = ${me.gender === 'homme' ? 'femme' : 'homme'}`,
    sql`c.member_id <> ${me.memberId}::uuid`,
    sql`(c.contract_ends_at IS NULL OR c.contract_ends_at > ${new Date(now).toISOString()}::timestamptz)`,
  ];
  const required = requiredSql(me, myAge, now);
  if (!options.outsideRequired) conditions.push(...required);
  else if (required.length === 0) return null;
  else conditions.push(sql`NOT (${sql.join(required, sql` AND `)})`);
  if (filters.ageMin !== undefined || filters.ageMax !== undefined) {
    const ageMin = filters.ageMin ?? 0;
    const ageMax = filters.ageMax ?? 200;
    if (ageMin > ageMax) return null;
    const bounds = birthDateBounds(ageMin, ageMax, now);
    conditions.push(sql`c.birth_date > ${bounds.after}::date`, sql`c.birth_date <= ${bounds.onOrBefore}::date`);
  }
  if (filters.withoutChildren) conditions.push(sql`c.children_count = 0`);
  if (filters.withChildren) conditions.push(sql`c.children_count > 0`);
  if (filters.counsellorId === null)
    conditions.push(sql`NOT EXISTS (SELECT 1 FROM member_counsellors mc WHERE mc.member_id = c.member_id)`);
  else if (filters.counsellorId !== undefined && UUID.test(filters.counsellorId))
    conditions.push(
      sql`EXISTS (SELECT 1 FROM member_counsellors mc WHERE mc.member_id = c.member_id AND mc.counsellor_id = ${filters.counsellorId}::uuid)`,
    );
  if (excluded.length > 0) conditions.push(sql`NOT (c.member_id = ANY(${arrayLiteral(excluded)}::uuid[]))`);
  if (filters.regions) conditions.push(sql`c.region = ANY(${arrayLiteral(filters.regions)}::text[])`);
  if (filters.practices) conditions.push(sql`c.practice = ANY(${arrayLiteral(filters.practices)}::text[])`);
  if (filters.languages && filters.languages.length > 0) conditions.push(sql`c.languages && ${arrayLiteral(filters.languages)}::text[]`);
  if (filters.madhhabs && filters.madhhabs.length > 0) conditions.push(sql`c.madhhab = ANY(${arrayLiteral(filters.madhhabs)}::text[])`);
  if (filters.maritalStatuses) conditions.push(sql`c.marital_status = ANY(${arrayLiteral(filters.maritalStatuses)}::text[])`);

  const score = scoreSql(me, myAge, now);
  // Only staff's minimum is a condition on the score: `score >= 0` would be pushed into the scan and computed twice.
  if (filters.minScore) conditions.push(sql`${score} >= ${filters.minScore}::int`);
  return sql`SELECT ${PROFILE_COLUMNS}, ${score}::int AS score FROM match_profiles c WHERE ${sql.join(conditions, sql` AND `)}
    ORDER BY score DESC, member_id
    LIMIT ${limit}::int OFFSET ${offset}::int`;
}
