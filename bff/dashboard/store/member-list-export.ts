import { and, asc, type SQL, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';
import { stageKeySql } from '#bff/members/store/stage.ts';
import {
  anyOf,
  COUNSELLED,
  type ListScope,
  type MemberListCriteria,
  memberListWhere,
  NAME_KEY,
  orderOf,
} from '#bff/dashboard/store/member-list.ts';

/** The member list's export reads (decision 227; its lines in bff/dashboard/member-list-export.ts). */

/**
 * The ids of the filtered list in its order (the page's WHERE and ORDER BY, the counsellor order in
 * its two parts), read once: the export then reads its rows by id, so the filtered set is sorted
 * once rather than once per chunk as an OFFSET would.
 */
export async function orderedIds(db: Db, filter: MemberListCriteria, scope: ListScope, now: Date): Promise<string[]> {
  const where = memberListWhere(filter, scope, now);
  const ids = (condition: SQL | undefined, order: SQL[]) =>
    db
      .select({ id: members.id })
      .from(members)
      .where(condition)
      .orderBy(...order, asc(members.id))
      .then((rows) => rows.map((r) => r.id));
  if (filter.sort !== 'counsellor') return ids(where, orderOf(filter, now));
  const counselled = await ids(and(where, COUNSELLED), orderOf(filter, now));
  const rest = await ids(and(where, sql`NOT ${COUNSELLED}`), [asc(NAME_KEY)]);
  return [...counselled, ...rest];
}

const MEMBER_ID = sql.raw('"members"."id"');

/** A line's columns, as the export writes them (decision 227). */
export interface ExportRow {
  id: string;
  email: string;
  /** A name part that is not a JSON string is NULL (the list drops it too). */
  firstName: string | null;
  lastName: string | null;
  birthDate: string | null;
  postcode: string | null;
  gender: string;
  disabled: boolean;
  /** Instants in milliseconds: no Date built for a day written once a day. */
  createdAt: number;
  updatedAt: number;
  state: string | null;
  counsellorId: string | null;
  counsellorName: string | null;
  /** The tags joined by « , » in their key's order. */
  tags: string | null;
}

/**
 * The rows of `ids` with their counsellor and tags, in the order of `ids`: one statement a chunk (the
 * follow-up read with them, as `withFollowUp` reads it for a page: the counsellor's name, else
 * their address, else none; the tags in their key's order). Read as plain rows, each column already
 * what the line writes: drizzle's mapping of each field of each row was a fifth of the export's CPU.
 */
export async function rowsByIds(db: Db, ids: string[], now: Date): Promise<ExportRow[]> {
  const result = await db.execute(sql`SELECT "members"."id" AS "id", "members"."email" AS "email",
      CASE WHEN jsonb_typeof("members"."profile"->'firstName') = 'string' THEN "members"."profile"->>'firstName' END AS "firstName",
      CASE WHEN jsonb_typeof("members"."profile"->'lastName') = 'string' THEN "members"."profile"->>'lastName' END AS "lastName",
      ("members"."profile"->>'birthDate') AS "birthDate", ("members"."profile"->>'postcode') AS "postcode",
      "members"."gender" AS "gender", "members"."disabled" AS "disabled",
      floor(extract(epoch FROM "members"."created_at") * 1000)::float8 AS "createdAt",
      floor(extract(epoch FROM "members"."updated_at") * 1000)::float8 AS "updatedAt",
      ${stageKeySql(now)} AS "state",
      mc.counsellor_id AS "counsellorId", coalesce(nullif(btrim(c.onboarding->>'name'), ''), c.email) AS "counsellorName",
      (SELECT string_agg(t.tag, ', ' ORDER BY t.tag_key) FROM member_tags t WHERE t.member_id = ${MEMBER_ID}) AS "tags"
    FROM members
      -- One counsellor at most a member (its key): joined, a third of a chunk's time less than two subqueries.
      LEFT JOIN member_counsellors mc ON mc.member_id = ${MEMBER_ID}
      LEFT JOIN members c ON c.id = mc.counsellor_id
    WHERE ${anyOf(members.id, ids)}`);
  const rows = (result as unknown as { rows: ExportRow[] }).rows;
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
