import { type SQL, sql } from 'drizzle-orm';
import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import { termEndsAtMs } from '#machines/onboarding/periods.ts';
import {
  availableAt,
  birthDateBounds,
  type CriterionResult,
  criteria,
  hardCriteria,
  MAX_SCORE,
  type MatchProfile,
  profileFromOnboarding,
  softScore,
  type UnavailableReason,
  unavailableReasonOf,
} from '#machines/matching/criteria.ts';
import type { HomeRegion } from '#machines/matching/regions.ts';
import { ageOn, type MaritalStatus, type PrayerPractice } from '#machines/onboarding/forms.ts';
import { onboardingRecordSchema } from '#machines/onboarding/record.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { parisDayOf } from '#machines/paris-time.ts';

/**
 * Candidates for a member (issue 22, staff side). Profiles live in `match_profiles` (migration
 * 0014), derived from steps 1-2 by `upsertMatchProfile`. `rankCandidates` evaluates every hard
 * criterion of machines/matching/criteria.ts, both ways, in one SQL statement on indexed columns
 * (the pool index on gender and birth date, GIN on the accepted lists), scores the soft criteria
 * in the same statement, and reads back only the `limit` best rows; the reasons of those rows are
 * then written by the pure functions, which the tests hold the SQL to.
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
  available: boolean;
  unavailable_reason: string | null;
  contract_ends_ms: number | null;
}

const PROFILE_COLUMNS_TEXT = `member_id::text AS member_id, gender, birth_date::text AS birth_date, region, practice, marital_status,
  children_count::int AS children_count, profession, age_min::int AS age_min, age_max::int AS age_max, regions_accepted,
  sought_practice, practices_accepted, family_situations_accepted, accepts_children, sought_professional_situation,
  available, unavailable_reason, (extract(epoch FROM contract_ends_at) * 1000)::float8 AS contract_ends_ms`;
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
    ageMin: Number(row.age_min),
    ageMax: Number(row.age_max),
    regionsAccepted: row.regions_accepted as HomeRegion[],
    soughtPractice: row.sought_practice as MatchProfile['soughtPractice'],
    practicesAccepted: row.practices_accepted as PrayerPractice[],
    familySituationsAccepted: row.family_situations_accepted as MaritalStatus[],
    acceptsChildren: row.accepts_children,
    soughtProfessionalSituation: row.sought_professional_situation as MatchProfile['soughtProfessionalSituation'],
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
      available: p.available,
      unavailable_reason: p.unavailableReason,
      contract_ends_at: p.contractEndsAt === null ? null : new Date(p.contractEndsAt).toISOString(),
    }));
    await executor.execute(sql`
      INSERT INTO match_profiles (member_id, gender, birth_date, region, practice, marital_status, children_count, profession,
        age_min, age_max, regions_accepted, sought_practice, practices_accepted, family_situations_accepted, accepts_children,
        sought_professional_situation, available, unavailable_reason, contract_ends_at, updated_at)
      SELECT member_id, gender, birth_date, region, practice, marital_status, children_count, profession,
        age_min, age_max, regions_accepted, sought_practice, practices_accepted, family_situations_accepted, accepts_children,
        sought_professional_situation, available, unavailable_reason, contract_ends_at, now()
      FROM jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) AS r(member_id uuid, gender text, birth_date date, region text,
        practice text, marital_status text, children_count smallint, profession text, age_min smallint, age_max smallint,
        regions_accepted text[], sought_practice text, practices_accepted text[], family_situations_accepted text[],
        accepts_children boolean, sought_professional_situation text, available boolean, unavailable_reason text,
        contract_ends_at timestamptz)
      ON CONFLICT (member_id) DO UPDATE SET
        gender = EXCLUDED.gender, birth_date = EXCLUDED.birth_date, region = EXCLUDED.region, practice = EXCLUDED.practice,
        marital_status = EXCLUDED.marital_status, children_count = EXCLUDED.children_count, profession = EXCLUDED.profession,
        age_min = EXCLUDED.age_min, age_max = EXCLUDED.age_max, regions_accepted = EXCLUDED.regions_accepted,
        sought_practice = EXCLUDED.sought_practice, practices_accepted = EXCLUDED.practices_accepted,
        family_situations_accepted = EXCLUDED.family_situations_accepted, accepts_children = EXCLUDED.accepts_children,
        sought_professional_situation = EXCLUDED.sought_professional_situation, available = EXCLUDED.available,
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

/** Staff's filters: they only narrow the candidates the hard criteria allow. */
export interface CandidateFilters {
  regions?: readonly HomeRegion[];
  practices?: readonly PrayerPractice[];
  maritalStatuses?: readonly MaritalStatus[];
  ageMin?: number;
  ageMax?: number;
  withoutChildren?: boolean;
  minScore?: number;
}

export interface RankOptions {
  /** How many candidates at most (default 20, at most 200). */
  limit?: number;
  filters?: CandidateFilters;
  /** Members never to propose: already proposed, declined, in an open introduction. */
  excludeMemberIds?: readonly string[];
  now?: number;
}

export interface RankedCandidate {
  memberId: string;
  score: number;
  maxScore: number;
  profile: MatchProfile;
  /** Every criterion, both ways: the hard ones (all met) then the soft ones. */
  reasons: CriterionResult[];
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

/**
 * The SQL of the two-way soft score of candidate `c` for member `me`: criteria.ts `softScore`,
 * term by term, with the candidate's age computed as `ageOn` does (today in France).
 */
function scoreSql(me: MatchProfile, myAge: number, today: string): SQL {
  const points = (id: keyof typeof criteria) => sql.raw(String(criteria[id].points));
  const candidateAge = sql`(${Number(today.slice(0, 4))}::int - extract(year FROM c.birth_date)::int
    - CASE WHEN to_char(c.birth_date, 'MMDD') > ${today.slice(5, 7) + today.slice(8, 10)} THEN 1 ELSE 0 END)`;
  const myExactPractice =
    me.soughtPractice === 'indifferent'
      ? sql`CASE WHEN c.practice = ANY(${arrayLiteral(me.practicesAccepted)}::text[]) THEN 1 ELSE 0 END`
      : sql`CASE WHEN c.practice = ${me.soughtPractice} THEN ${points('pratique-identique')}
          WHEN c.practice = ANY(${arrayLiteral(me.practicesAccepted)}::text[]) THEN 1 ELSE 0 END`;
  return sql`(
    CASE WHEN c.region = ${me.region} THEN ${points('meme-region')} ELSE 0 END
    + CASE WHEN c.marital_status = ANY(${arrayLiteral(me.familySituationsAccepted)}::text[]) THEN ${points('situation-familiale')} ELSE 0 END
    + CASE WHEN ${me.maritalStatus}::text = ANY(c.family_situations_accepted) THEN ${points('situation-familiale')} ELSE 0 END
    + ${myExactPractice}
    + CASE WHEN c.sought_practice <> 'indifferent' AND c.sought_practice = ${me.practice} THEN ${points('pratique-identique')}
        WHEN ${me.practice}::text = ANY(c.practices_accepted) THEN 1 ELSE 0 END
    + ${me.soughtProfessionalSituation === 'indifferent' ? points('situation-professionnelle') : sql.raw('0')}
    + CASE WHEN c.sought_professional_situation = 'indifferent' THEN ${points('situation-professionnelle')} ELSE 0 END
    + CASE WHEN 2 * abs(2 * ${candidateAge} - ${me.ageMin + me.ageMax}::int) <= ${me.ageMax - me.ageMin}::int
        THEN ${points('coeur-tranche-age')} ELSE 0 END
    + CASE WHEN 2 * abs(2 * ${myAge}::int - c.age_min - c.age_max) <= c.age_max - c.age_min THEN ${points('coeur-tranche-age')} ELSE 0 END
  )`;
}

/**
 * Ranks the candidates for a member: available members of the other sex meeting every hard
 * criterion both ways (availability, age range, region, practice, children), not excluded, within
 * staff's filters, best two-way score first (ties by member id), at most `limit`.
 */
export async function rankCandidates(executor: MatchingExecutor, memberId: string, options: RankOptions = {}): Promise<Ranking> {
  const now = options.now ?? Date.now();
  const limit = Math.max(1, Math.min(MAX_CANDIDATES, Math.floor(options.limit ?? DEFAULT_CANDIDATES)));
  const filters = options.filters ?? {};
  const me = await matchProfileOf(executor, memberId);
  if (!me || !availableAt(me, now)) return { member: me, candidates: [] };
  const myAge = ageOn(me.birthDate, now);
  if (myAge === null) return { member: me, candidates: [] };
  const today = parisDayOf(now);
  const ageMin = Math.max(me.ageMin, filters.ageMin ?? 0);
  const ageMax = Math.min(me.ageMax, filters.ageMax ?? 200);
  if (ageMin > ageMax) return { member: me, candidates: [] };
  const bounds = birthDateBounds(ageMin, ageMax, now);
  const excluded = (options.excludeMemberIds ?? []).filter((id) => UUID.test(id));

  const conditions: SQL[] = [
    sql`c.available`,
    sql`c.gender = ${me.gender === 'homme' ? 'femme' : 'homme'}`,
    sql`c.member_id <> ${me.memberId}::uuid`,
    sql`(c.contract_ends_at IS NULL OR c.contract_ends_at > ${new Date(now).toISOString()}::timestamptz)`,
    // The member's annex against the candidate…
    sql`c.birth_date > ${bounds.after}::date`,
    sql`c.birth_date <= ${bounds.onOrBefore}::date`,
    sql`c.region = ANY(${arrayLiteral(me.regionsAccepted)}::text[])`,
    sql`c.practice = ANY(${arrayLiteral(me.practicesAccepted)}::text[])`,
    // …and the candidate's annex against the member.
    sql`c.age_min <= ${myAge}::int`,
    sql`c.age_max >= ${myAge}::int`,
    sql`c.regions_accepted @> ${arrayLiteral([me.region])}::text[]`,
    sql`c.practices_accepted @> ${arrayLiteral([me.practice])}::text[]`,
  ];
  if (!me.acceptsChildren || filters.withoutChildren) conditions.push(sql`c.children_count = 0`);
  if (me.childrenCount > 0) conditions.push(sql`c.accepts_children`);
  if (excluded.length > 0) conditions.push(sql`NOT (c.member_id = ANY(${arrayLiteral(excluded)}::uuid[]))`);
  if (filters.regions) conditions.push(sql`c.region = ANY(${arrayLiteral(filters.regions)}::text[])`);
  if (filters.practices) conditions.push(sql`c.practice = ANY(${arrayLiteral(filters.practices)}::text[])`);
  if (filters.maritalStatuses) conditions.push(sql`c.marital_status = ANY(${arrayLiteral(filters.maritalStatuses)}::text[])`);

  const score = scoreSql(me, myAge, today);
  const minScore = filters.minScore ?? 0;
  const rows = await rowsOf<ProfileRow & { score: number }>(
    executor,
    sql`SELECT * FROM (
        SELECT ${PROFILE_COLUMNS}, ${score}::int AS score FROM match_profiles c WHERE ${sql.join(conditions, sql` AND `)}
      ) ranked
      WHERE score >= ${minScore}::int
      ORDER BY score DESC, member_id
      LIMIT ${limit}::int`,
  );
  const candidates = rows.map((row) => {
    const profile = profileOf(row);
    const soft = softScore(me, profile, now);
    return {
      memberId: profile.memberId,
      score: Number(row.score),
      maxScore: MAX_SCORE,
      profile,
      reasons: [...hardCriteria(me, profile, now), ...soft.reasons],
    };
  });
  return { member: me, candidates };
}
