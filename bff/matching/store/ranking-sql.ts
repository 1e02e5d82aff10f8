// The candidates' ranking as SQL over `match_profiles`: the criteria both ways, the score, staff's filters, and the one statement.
import { type SQL, sql } from 'drizzle-orm';
import { arrayLiteral, type MatchingExecutor, PROFILE_COLUMNS, type ProfileRow, rowsOf } from '#bff/matching/store/match-profiles.ts';
import {
  affinities,
  type CriterionId,
  criteria,
  criterionIds,
  NO_ACTIVITY_PATTERN,
  occupationOf,
  STUDIES_PATTERN,
} from '#machines/matching/criteria.ts';
import { birthDateBounds, type MatchProfile } from '#machines/matching/match-profile.ts';
import { type HomeRegion, homeRegions } from '#machines/matching/regions.ts';
import {
  type Beard,
  type EducationLevel,
  type Hijab,
  type Language,
  type Madhhab,
  type MaritalStatus,
  type PrayerPractice,
  requirableCriteria,
  ageOn,
} from '#machines/onboarding/forms.ts';
import { HEIGHT_MAX_CM, HEIGHT_MIN_CM, maritalStatusLabels } from '#machines/onboarding/labels.ts';

/**
 * The rules of machines/matching/criteria.ts as SQL over a candidate's row of `match_profiles`
 * (aliased `c`): each criterion met, both ways; the indispensable ones of both sides; the two-way
 * score term by term; and staff's filters. The integration test holds these to the pure rules over
 * generated populations (decisions 113, 193, 208 and 212).
 */

type Predicate = SQL | boolean;

/** Every family situation accepted: « peu importe » (criteria.ts `judge`). */
const MARITAL_STATUSES = Object.keys(maritalStatusLabels).length;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
    case 'taille': {
      const min = me.soughtHeightMin ?? null;
      const max = me.soughtHeightMax ?? null;
      if (min === null && max === null) return true;
      // An unknown height is `a-verifier`: not met.
      return sql`(c.height_cm IS NOT NULL AND c.height_cm BETWEEN ${min ?? HEIGHT_MIN_CM}::int AND ${max ?? HEIGHT_MAX_CM}::int)`;
    }
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
    case 'taille': {
      const noWish = sql`(c.sought_height_min IS NULL AND c.sought_height_max IS NULL)`;
      const height = me.heightCm ?? null;
      if (height === null) return noWish;
      return sql`(${noWish} OR (coalesce(c.sought_height_min, ${HEIGHT_MIN_CM}::smallint) <= ${height}::int
        AND coalesce(c.sought_height_max, ${HEIGHT_MAX_CM}::smallint) >= ${height}::int))`;
    }
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
  /** Only candidates of these levels of education (decision 212). */
  educationLevels?: readonly EducationLevel[];
  /** Only candidates whose stated height is within these bounds, in cm (decision 212; an unknown height is left out). */
  heightMin?: number;
  heightMax?: number;
  /** Only women with these answers on the hijab, men with these on the beard (sensitive, under the consent: decision 212). */
  hijabs?: readonly Hijab[];
  beards?: readonly Beard[];
  minScore?: number;
}

/**
 * Staff's filters as SQL conditions on the candidate `c` (the minimum score is the caller's: it
 * needs the score's expression), or null when they cannot all hold (an empty age range).
 */
function filterSql(filters: CandidateFilters, now: number): SQL[] | null {
  const conditions: SQL[] = [];
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
  if (filters.regions) conditions.push(sql`c.region = ANY(${arrayLiteral(filters.regions)}::text[])`);
  if (filters.practices) conditions.push(sql`c.practice = ANY(${arrayLiteral(filters.practices)}::text[])`);
  if (filters.languages && filters.languages.length > 0) conditions.push(sql`c.languages && ${arrayLiteral(filters.languages)}::text[]`);
  if (filters.madhhabs && filters.madhhabs.length > 0) conditions.push(sql`c.madhhab = ANY(${arrayLiteral(filters.madhhabs)}::text[])`);
  if (filters.maritalStatuses) conditions.push(sql`c.marital_status = ANY(${arrayLiteral(filters.maritalStatuses)}::text[])`);
  if (filters.educationLevels && filters.educationLevels.length > 0)
    conditions.push(sql`c.education_level = ANY(${arrayLiteral(filters.educationLevels)}::text[])`);
  if (filters.heightMin !== undefined || filters.heightMax !== undefined) {
    const min = filters.heightMin ?? HEIGHT_MIN_CM;
    const max = filters.heightMax ?? HEIGHT_MAX_CM;
    if (min > max) return null;
    conditions.push(sql`c.height_cm BETWEEN ${min}::int AND ${max}::int`);
  }
  if (filters.hijabs && filters.hijabs.length > 0) conditions.push(sql`c.hijab = ANY(${arrayLiteral(filters.hijabs)}::text[])`);
  if (filters.beards && filters.beards.length > 0) conditions.push(sql`c.beard = ANY(${arrayLiteral(filters.beards)}::text[])`);
  return conditions;
}

/** What the one statement of the ranking reads: the page, staff's filters, the members left out, which side of the indispensable criteria. */
export interface CandidateQuery {
  limit: number;
  offset: number;
  filters: CandidateFilters;
  excludeMemberIds: readonly string[];
  outsideRequired: boolean;
  now: number;
}

/** The one statement of `rankCandidates` for an available member, or null when nobody can be in it. */
function candidatesSql(me: MatchProfile, options: CandidateQuery): SQL | null {
  const { now, limit, offset, filters } = options;
  const myAge = ageOn(me.birthDate, now);
  if (myAge === null) return null;
  const excluded = options.excludeMemberIds.filter((id) => UUID.test(id));

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
  const narrowed = filterSql(filters, now);
  if (narrowed === null) return null;
  conditions.push(...narrowed);
  if (excluded.length > 0) conditions.push(sql`NOT (c.member_id = ANY(${arrayLiteral(excluded)}::uuid[]))`);

  const score = scoreSql(me, myAge, now);
  // Only staff's minimum is a condition on the score: `score >= 0` would be pushed into the scan and computed twice.
  if (filters.minScore) conditions.push(sql`${score} >= ${filters.minScore}::int`);
  return sql`SELECT ${PROFILE_COLUMNS}, ${score}::int AS score FROM match_profiles c WHERE ${sql.join(conditions, sql` AND `)}
    ORDER BY score DESC, member_id
    LIMIT ${limit}::int OFFSET ${offset}::int`;
}

/** The ranked candidates' rows, best first, or null when nobody can be in the list (no statement is run). */
export async function rankedCandidateRows(
  executor: MatchingExecutor,
  me: MatchProfile,
  query: CandidateQuery,
): Promise<(ProfileRow & { score: number })[] | null> {
  const statement = candidatesSql(me, query);
  if (!statement) return null;
  return rowsOf<ProfileRow & { score: number }>(executor, statement);
}
