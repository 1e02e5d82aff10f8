import { and, asc, type SQL, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';
import {
  anyOf,
  COUNSELLED,
  type ListScope,
  type MemberListCriteria,
  memberListWhere,
  NAME_KEY,
  orderOf,
  rowColumns,
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

/**
 * The rows of `ids` with their counsellor and tags, in the order of `ids`: one statement a chunk (the
 * follow-up read by subqueries, as `withFollowUp` reads it for a page: the counsellor's name, else
 * their address, else none; the tags in their key's order).
 */
export async function rowsByIds(db: Db, ids: string[], now: Date) {
  const rows = await db
    .select({
      ...rowColumns(now),
      counsellorId: sql<string | null>`(SELECT mc.counsellor_id FROM member_counsellors mc WHERE mc.member_id = ${MEMBER_ID})`,
      counsellorName: sql<string | null>`(SELECT coalesce(nullif(btrim(c.onboarding->>'name'), ''), c.email)
        FROM member_counsellors mc JOIN members c ON c.id = mc.counsellor_id WHERE mc.member_id = ${MEMBER_ID})`,
      tags: sql<string[] | null>`(SELECT array_agg(t.tag ORDER BY t.tag_key) FROM member_tags t WHERE t.member_id = ${MEMBER_ID})`,
    })
    .from(members)
    .where(anyOf(members.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export type ExportRow = Awaited<ReturnType<typeof rowsByIds>>[number];
