import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '#bff/db/database.ts';
import { memberCounsellors, memberTags } from '#bff/db/follow-up-schema.ts';
import { members } from '#bff/db/schema.ts';
import { stageOrderRows } from '#bff/dashboard/store/member-list-stage-order.ts';
import { stageKeySql, topStateSql } from '#bff/members/store/stage.ts';
import { NO_COUNSELLOR, tagKey } from '#machines/follow-up/follow-up.ts';
import { birthDateBounds } from '#machines/matching/match-profile.ts';
import { type HomeRegion, regionOfPostcode } from '#machines/matching/regions.ts';
import { TOP_STATES, type TopState } from '#machines/onboarding/steps.ts';

/**
 * The member list's queries (decision 227; the rules, the page and its words in
 * bff/dashboard/member-list.ts): every filter, the order and the page answered by the database over
 * the stored stage (decision 204), a counsellor's list narrowed to their members (decision 206).
 */

/** The sortable columns of the list. */
export const MEMBER_LIST_SORTS = ['created', 'updated', 'email', 'name', 'age', 'stage', 'counsellor'] as const;
type MemberListSort = (typeof MEMBER_LIST_SORTS)[number];

/** What the list is asked for: the filters (validated by the domain's schema), the order. */
export interface MemberListCriteria {
  q?: string | undefined;
  step?: TopState | undefined;
  tag?: string | undefined;
  /** A counsellor's id, or `NO_COUNSELLOR`. */
  counsellor?: string | undefined;
  gender?: 'homme' | 'femme' | undefined;
  ageMin?: number | undefined;
  ageMax?: number | undefined;
  region?: HomeRegion | undefined;
  practice?: string | undefined;
  sort: MemberListSort;
  dir?: 'asc' | 'desc' | undefined;
}

/**
 * Whose members a caller may list: `counsellorId` narrows the list to the members entrusted to that
 * counsellor; null is the whole agency (the administration).
 */
export interface ListScope {
  counsellorId: string | null;
}

/** The expressions migration 0050 indexes: keep them the same, character for character. */
const BIRTH_DATE = sql`(${members.profile}->>'birthDate')`;
const POSTCODE = sql`(${members.profile}->>'postcode')`;
export const NAME_KEY = sql`lower(coalesce(${members.profile}->>'firstName', '') || ' ' || coalesce(${members.profile}->>'lastName', ''))`;
/** The practice while its processing is consented to (migration 0057, kept by a trigger). */
const CONSENTED_PRACTICE = sql.raw('"members"."consented_practice"');
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
export function memberListWhere(filter: MemberListCriteria, scope: ListScope, now: Date): SQL | undefined {
  const conditions: (SQL | undefined)[] = [
    eq(members.role, 'member'),
    scope.counsellorId === null
      ? undefined
      : sql`EXISTS (SELECT 1 FROM ${memberCounsellors} mc WHERE mc.member_id = ${members.id} AND mc.counsellor_id = ${scope.counsellorId})`,
  ];
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
    // Only members who consented to their religious practice being processed, and still hold the
    // answer: the column migration 0057 keeps from the record and its consent.
    conditions.push(sql`${CONSENTED_PRACTICE} = ${filter.practice}`);
  return and(...conditions);
}

export function orderOf(filter: MemberListCriteria, now: Date): SQL[] {
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
export function defaultDir(sort: MemberListSort): 'asc' | 'desc' {
  return sort === 'email' || sort === 'name' || sort === 'counsellor' || sort === 'stage' || sort === 'age' ? 'asc' : 'desc';
}

/** The columns a line reads. */
function rowColumns(now: Date) {
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
async function counsellorOrderRows(db: Db, filter: MemberListCriteria, where: SQL | undefined, now: Date, limit: number, offset: number) {
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
export async function memberListRows(db: Db, filter: MemberListCriteria, scope: ListScope, now: Date, limit: number, offset: number) {
  const where = memberListWhere(filter, scope, now);
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

export type MemberListRow = Awaited<ReturnType<typeof memberListRows>>[number];

/** How many members the filters give. */
export async function memberListCount(db: Db, filter: MemberListCriteria, scope: ListScope, now: Date): Promise<number> {
  const [counted] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(members)
    .where(memberListWhere(filter, scope, now));
  return counted?.n ?? 0;
}
