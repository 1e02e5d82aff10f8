import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import * as v from 'valibot';
import type { Caller } from '#bff/auth/caller.ts';
import { counselledOnly } from '#bff/auth/staff-policy.ts';
import type { Db } from '#bff/db/database.ts';
import { memberCounsellors, memberTags } from '#bff/db/follow-up-schema.ts';
import { members } from '#bff/db/schema.ts';
import { stageKeySql, topStateSql } from '#bff/members/stage.ts';
import { stageOrderRows } from '#bff/dashboard/member-list-stage-order.ts';
import { NO_COUNSELLOR, TagSchema, tagKey } from '#machines/follow-up/follow-up.ts';
import { birthDateBounds, practiceLevels } from '#machines/matching/match-profile.ts';
import { type HomeRegion, homeRegions, regionOfPostcode } from '#machines/matching/regions.ts';
import { ageOn } from '#machines/onboarding/age.ts';
import { regionLabels } from '#machines/onboarding/labels.ts';
import { stateOfKey } from '#machines/onboarding/stored-stage.ts';
import { contractEndStates, stateKey, stepIds, stepOf, type TopState, topStateOf } from '#machines/onboarding/steps.ts';

/**
 * The staff's member list (issue 63 point 3, issue 64, decision 210): every filter, the order and
 * the page answered by the database over the stored stage (decision 204), a counsellor's list
 * narrowed to their members (decision 206), and the CSV export of the same filtered list streamed
 * in one ordered pass, 500 rows at a time (`member-list-export.ts`).
 *
 * Religious practice (GDPR art. 9) is a filter only over members who gave the sensitive-data
 * consent and still hold the answer (a withdrawal removes it from the profile): it is never a
 * column of the list nor of the export.
 */

/** Every top-level state of the chart, in the order of the funnel (the « Étape » sort follows it). */
export const TOP_STATES = [
  ...stepIds,
  'membre-actif',
  'resiliation-demandee',
  ...contractEndStates,
  'desactive',
] as const satisfies readonly TopState[];

const uuidSchema = v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide'));
const intParam = (min: number, max: number, message: string) =>
  v.pipe(
    v.string(message),
    v.regex(/^\d{1,6}$/, message),
    v.transform(Number),
    v.minValue(min, `${message} (au moins ${min})`),
    v.maxValue(max, `${message} (au plus ${max})`),
  );

/** The sortable columns of the list. */
const MEMBER_LIST_SORTS = ['created', 'updated', 'email', 'name', 'age', 'stage', 'counsellor'] as const;
type MemberListSort = (typeof MEMBER_LIST_SORTS)[number];

/** The filters of the list and of its export (every value from the query string). */
const filterEntries = {
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, 'Recherche trop longue'))),
  step: v.optional(v.picklist(TOP_STATES, 'Étape inconnue')),
  // Staff's follow-up (decision 124): members with this tag; with this counsellor, or with none.
  tag: v.optional(TagSchema),
  counsellor: v.optional(
    v.pipe(
      v.string('Conseiller inconnu'),
      v.check((value) => value === NO_COUNSELLOR || v.is(uuidSchema, value), 'Conseiller inconnu'),
    ),
  ),
  gender: v.optional(v.picklist(['homme', 'femme'] as const, 'Sexe inconnu')),
  ageMin: v.optional(intParam(18, 120, 'Âge minimum invalide')),
  ageMax: v.optional(intParam(18, 120, 'Âge maximum invalide')),
  region: v.optional(v.picklist(homeRegions as [HomeRegion, ...HomeRegion[]], 'Région inconnue')),
  practice: v.optional(v.picklist(practiceLevels as [(typeof practiceLevels)[number]], 'Pratique inconnue')),
  sort: v.optional(v.picklist(MEMBER_LIST_SORTS, 'Tri inconnu'), 'created'),
  dir: v.optional(v.picklist(['asc', 'desc'] as const, 'Ordre inconnu')),
};
const ageRangeCheck = (value: { ageMin?: number; ageMax?: number }) =>
  value.ageMin === undefined || value.ageMax === undefined || value.ageMin <= value.ageMax;

export const MemberListFilterQuery = v.pipe(
  v.object(filterEntries),
  v.check((value) => ageRangeCheck(value), 'L’âge minimum dépasse l’âge maximum'),
);

/** `GET /dashboard/members`: the filters, and the page (20, 50 or 100 a page on screen; any size up to 100). */
export const MemberListQuery = v.pipe(
  v.object({
    ...filterEntries,
    page: v.optional(intParam(1, 100_000, 'Page invalide'), '1'),
    perPage: v.optional(intParam(1, 100, 'Nombre par page invalide'), '20'),
  }),
  v.check((value) => ageRangeCheck(value), 'L’âge minimum dépasse l’âge maximum'),
);

export type MemberListFilter = v.InferOutput<typeof MemberListFilterQuery>;

const profileText = (key: string) => sql`(${members.profile}->>${sql.raw(`'${key}'`)})`;
/** The expressions migration 0050 indexes: keep them the same, character for character. */
const BIRTH_DATE = sql`(${members.profile}->>'birthDate')`;
const POSTCODE = sql`(${members.profile}->>'postcode')`;
export const NAME_KEY = sql`lower(coalesce(${members.profile}->>'firstName', '') || ' ' || coalesce(${members.profile}->>'lastName', ''))`;
/** Qualified: drizzle writes a bare `"id"` in a select's columns, which a subquery over staff rows would take for theirs. */
const MEMBER_ID = sql.raw('"members"."id"');
const COUNSELLOR_NAME = sql<
  string | null
>`(SELECT coalesce(nullif(btrim(s.onboarding->>'name'), ''), s.email) FROM member_counsellors mc JOIN members s ON s.id = mc.counsellor_id WHERE mc.member_id = ${MEMBER_ID})`;

/** The counsellor's staff row. */
const counsellorRow = alias(members, 'counsellor');

/** The two-digit départements of a region (from the postcode's first two digits). */
function departementsOf(region: HomeRegion): string[] {
  const codes: string[] = [];
  for (let n = 0; n < 100; n += 1) {
    const code = String(n).padStart(2, '0');
    if (regionOfPostcode(`${code}100`) === region) codes.push(code);
  }
  return codes;
}

function regionSql(region: HomeRegion): SQL {
  const valid = sql`${POSTCODE} ~ '^[0-9]{5}$'`;
  if (region === 'etranger') return sql`(${valid} AND left(${POSTCODE}, 3) = '980')`;
  const codes = departementsOf(region);
  return sql`(${valid} AND left(${POSTCODE}, 2) IN (${sql.join(
    codes.map((c) => sql`${c}`),
    sql`, `,
  )}) AND left(${POSTCODE}, 3) <> '980')`;
}

/** The list's conditions for this caller at `now` (the stage is the chart's at `now`). */
export function memberListWhere(filter: MemberListFilter, staff: Caller, now: Date): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(members.role, 'member'), counselledOnly(staff, members.id)];
  if (filter.q) {
    const pattern = `%${filter.q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    conditions.push(
      sql`(lower(${members.email}) LIKE ${pattern} OR lower(coalesce(${members.profile}->>'firstName', '') || ' ' || coalesce(${members.profile}->>'lastName', '')) LIKE ${pattern} OR lower(coalesce(${members.profile}->>'lastName', '') || ' ' || coalesce(${members.profile}->>'firstName', '')) LIKE ${pattern})`,
    );
  }
  if (filter.tag)
    conditions.push(sql`EXISTS (SELECT 1 FROM member_tags t WHERE t.member_id = ${members.id} AND t.tag_key = ${tagKey(filter.tag)})`);
  if (filter.counsellor === NO_COUNSELLOR)
    conditions.push(sql`NOT EXISTS (SELECT 1 FROM member_counsellors mc WHERE mc.member_id = ${members.id})`);
  else if (filter.counsellor)
    conditions.push(
      sql`EXISTS (SELECT 1 FROM member_counsellors mc WHERE mc.member_id = ${members.id} AND mc.counsellor_id = ${filter.counsellor}::uuid)`,
    );
  if (filter.step) conditions.push(topStateSql(filter.step, now));
  if (filter.gender) conditions.push(eq(members.gender, filter.gender));
  if (filter.ageMin !== undefined || filter.ageMax !== undefined) {
    // Ages as `ageOn` counts them (Paris days), turned into bounds of the stored birth date (ISO text sorts as dates).
    const { after, onOrBefore } = birthDateBounds(filter.ageMin ?? 0, filter.ageMax ?? 150, now.getTime());
    conditions.push(sql`(${BIRTH_DATE} > ${after} AND ${BIRTH_DATE} <= ${onOrBefore})`);
  }
  if (filter.region) conditions.push(regionSql(filter.region));
  if (filter.practice)
    // Only members who consented to their religious practice being processed, and still hold the answer.
    conditions.push(
      sql`(${profileText('prayerPractice')} = ${filter.practice} AND ${members.onboarding}->>'sensitiveDataConsentAt' IS NOT NULL)`,
    );
  return and(...conditions);
}

export function orderOf(filter: MemberListFilter, now: Date): SQL[] {
  const sort: MemberListSort = filter.sort;
  const dir = filter.dir ?? defaultDir(sort);
  const by = (expression: SQL | typeof members.createdAt | typeof members.updatedAt, nullsLast = false) => {
    const ordered = dir === 'asc' ? asc(expression) : desc(expression);
    return nullsLast ? sql`${ordered} NULLS LAST` : ordered;
  };
  switch (sort) {
    case 'email':
      return [by(sql`lower(${members.email})`)];
    case 'updated':
      return [by(members.updatedAt)];
    case 'name':
      return [by(NAME_KEY), asc(sql`lower(${members.email})`)];
    case 'age':
      // The oldest first is the earliest birth date first.
      return [dir === 'asc' ? sql`${BIRTH_DATE} DESC NULLS LAST` : sql`${BIRTH_DATE} ASC NULLS LAST`, asc(sql`lower(${members.email})`)];
    case 'stage': {
      const states = `{${TOP_STATES.join(',')}}`;
      return [by(sql`array_position(${states}::text[], split_part(${stageKeySql(now)}, '.', 1))`, true), desc(members.createdAt)];
    }
    case 'counsellor':
      return [by(sql`lower(${COUNSELLOR_NAME})`, true), asc(NAME_KEY)];
    default:
      return [by(members.createdAt)];
  }
}

/** The order a column starts in when first chosen: names A → Z, the newest first. */
function defaultDir(sort: MemberListSort): 'asc' | 'desc' {
  return sort === 'email' || sort === 'name' || sort === 'counsellor' || sort === 'stage' || sort === 'age' ? 'asc' : 'desc';
}

/** The columns a line reads. */
export function rowColumns(now: Date) {
  return {
    id: members.id,
    email: members.email,
    firstName: sql<unknown>`${members.profile}->'firstName'`,
    lastName: sql<unknown>`${members.profile}->'lastName'`,
    birthDate: sql<string | null>`${BIRTH_DATE}`,
    postcode: sql<string | null>`${POSTCODE}`,
    gender: members.gender,
    disabled: members.disabled,
    createdAt: members.createdAt,
    updatedAt: members.updatedAt,
    state: stageKeySql(now),
  };
}

/** One slice of the list in `order` (with the id last: a total order), the columns a line reads. */
function selectRows(db: Db, where: SQL | undefined, order: SQL[], limit: number, offset: number, now: Date) {
  return db
    .select(rowColumns(now))
    .from(members)
    .where(where)
    .orderBy(...order, asc(members.id))
    .limit(limit)
    .offset(offset);
}

export const COUNSELLED = sql`EXISTS (SELECT 1 FROM member_counsellors mc WHERE mc.member_id = ${MEMBER_ID})`;

/**
 * The « Conseiller·ère » order is the members who have a counsellor (by the counsellor's name,
 * then their own) followed by those who have none (by their own name, `members_name_key`): read
 * as those two ordered parts, so that a page of the second is an index scan rather than a sort of
 * every member by a name looked up for each (the same rows, in the same order, as one ORDER BY).
 */
async function counsellorOrderRows(db: Db, filter: MemberListFilter, where: SQL | undefined, now: Date, limit: number, offset: number) {
  const [counted] = await db.select({ n: sql<number>`count(*)::int` }).from(members).where(and(where, COUNSELLED));
  const counselled = counted?.n ?? 0;
  const first =
    offset < counselled
      ? await selectRows(db, and(where, COUNSELLED), orderOf(filter, now), Math.min(limit, counselled - offset), offset, now)
      : [];
  if (first.length >= limit) return first;
  const rest = await selectRows(
    db,
    and(where, sql`NOT ${COUNSELLED}`),
    [asc(NAME_KEY)],
    limit - first.length,
    Math.max(0, offset - counselled),
    now,
  );
  return [...first, ...rest];
}

/**
 * One page of rows. The page's members are chosen first (filters, order, offset); their counsellor
 * and tags are read after, for those rows only: in the select list they would be computed for every
 * row the offset skips.
 */
async function rowsOf(db: Db, filter: MemberListFilter, staff: Caller, now: Date, limit: number, offset: number) {
  const where = memberListWhere(filter, staff, now);
  const rows =
    filter.sort === 'stage'
      ? await stageOrderRows({
          db,
          where,
          now,
          states: (filter.dir ?? defaultDir('stage')) === 'asc' ? TOP_STATES : [...TOP_STATES].reverse(),
          select: (condition, order, n, skip) => selectRows(db, condition, order, n, skip, now),
          limit,
          offset,
        })
      : filter.sort === 'counsellor'
        ? await counsellorOrderRows(db, filter, where, now, limit, offset)
        : await selectRows(db, where, orderOf(filter, now), limit, offset, now);
  return withFollowUp(db, rows);
}

/**
 * `column = ANY(ids)` with the ids as one array parameter: drizzle's `inArray` writes one parameter
 * per id, and building that statement for 500 ids cost more CPU than reading its rows (the export's profile).
 */
export const anyOf = (column: unknown, ids: string[]) => sql`${column} = ANY(${`{${ids.join(',')}}`}::uuid[])`;

/** The rows with their counsellor and tags, read for those rows only. */

async function withFollowUp<Row extends { id: string }>(db: Db, rows: Row[]) {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [counsellors, tags] = await Promise.all([
    db
      .select({
        memberId: memberCounsellors.memberId,
        counsellorId: memberCounsellors.counsellorId,
        name: sql<string>`coalesce(nullif(btrim(${counsellorRow.onboarding}->>'name'), ''), ${counsellorRow.email})`,
      })
      .from(memberCounsellors)
      .leftJoin(counsellorRow, eq(counsellorRow.id, memberCounsellors.counsellorId))
      .where(anyOf(memberCounsellors.memberId, ids)),
    db
      .select({ memberId: memberTags.memberId, tag: memberTags.tag })
      .from(memberTags)
      .where(anyOf(memberTags.memberId, ids))
      .orderBy(asc(memberTags.tagKey)),
  ]);
  const counsellorOf = new Map(counsellors.map((c) => [c.memberId, c]));
  const tagsOf = new Map<string, string[]>();
  for (const t of tags) tagsOf.set(t.memberId, [...(tagsOf.get(t.memberId) ?? []), t.tag]);
  return rows.map((row) => ({
    ...row,
    counsellorId: counsellorOf.get(row.id)?.counsellorId ?? null,
    counsellorName: counsellorOf.get(row.id)?.name ?? null,
    tags: tagsOf.get(row.id) ?? null,
  }));
}

type ListRow = Awaited<ReturnType<typeof rowsOf>>[number];

export function nameOf(row: Pick<ListRow, 'firstName' | 'lastName'>): string | null {
  const parts = [row.firstName, row.lastName].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
  return parts.length > 0 ? parts.join(' ') : null;
}

/** A line of the list: the columns the list reads, the stage computed in SQL, the age and region in words. */
function listItem(row: ListRow, now: Date) {
  // Never NULL here: refreshStaleStages wrote it, or the record is unreadable (the member's file says so).
  const value = stateOfKey(row.state ?? 'profil');
  const step = stepOf(value);
  const region = row.postcode ? regionOfPostcode(row.postcode) : null;
  return {
    id: row.id,
    email: row.email,
    name: nameOf(row),
    gender: row.gender,
    age: row.birthDate ? ageOn(row.birthDate, now.getTime()) : null,
    region: region ? { id: region, label: regionLabels[region] } : null,
    state: stateKey(value),
    top: topStateOf(value),
    step: step ? { id: step.id, number: step.number, title: step.title } : null,
    counsellor: row.counsellorId ? { id: row.counsellorId, name: row.counsellorName ?? 'Compte supprimé' } : null,
    tags: row.tags ?? [],
    disabled: row.disabled,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** One page of the list, and how many members the filters give. */
export async function memberListPage(db: Db, query: v.InferOutput<typeof MemberListQuery>, staff: Caller, now: Date) {
  const [rows, [counted]] = await Promise.all([
    rowsOf(db, query, staff, now, query.perPage, (query.page - 1) * query.perPage),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(members)
      .where(memberListWhere(query, staff, now)),
  ]);
  const total = counted?.n ?? 0;
  return {
    items: rows.map((row) => listItem(row, now)),
    total,
    page: query.page,
    perPage: query.perPage,
    pageCount: Math.max(1, Math.ceil(total / query.perPage)),
    sort: query.sort,
    dir: query.dir ?? defaultDir(query.sort),
  };
}
