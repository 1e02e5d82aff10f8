import { and, desc, type SQL, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';
import { stageKeySql, topStateSql } from '#bff/members/store/stage.ts';
import type { TopState } from '#machines/onboarding/steps.ts';

/**
 * The member list's « Étape » order (bff/dashboard/member-list.ts): the members of each top-level
 * state of the chart in `states`' order, each state's newest first, then those whose stage is
 * unknown. Read as those parts, each by the indexes `topStateSql` names, so that a page reads its
 * state's rows rather than sorting every member by a stage computed for each: the same rows, in the
 * same order, as `ORDER BY array_position(states, top) NULLS LAST, created_at DESC, id` (decision
 * 224). A part is counted only when the page starts past it.
 */
export async function stageOrderRows<Row>(input: {
  db: Db;
  where: SQL | undefined;
  now: Date;
  /** Every top-level state the list knows, in the page's order. */
  states: readonly TopState[];
  /** The list's rows under `condition` in `order` (the id last), `limit` of them after `offset`. */
  select: (condition: SQL | undefined, order: SQL[], limit: number, offset: number) => Promise<Row[]>;
  limit: number;
  offset: number;
}): Promise<Row[]> {
  const { db, where, now, limit } = input;
  const top = sql`split_part(${stageKeySql(now)}, '.', 1)`;
  const parts: SQL[] = [
    ...input.states.map((state) => topStateSql(state, now)),
    // A stage not written yet (or a state the list does not know): last, as `NULLS LAST` put it.
    sql`array_position(${`{${input.states.join(',')}}`}::text[], ${top}) IS NULL`,
  ];
  const rows: Row[] = [];
  let skip = input.offset;
  for (const part of parts) {
    if (rows.length >= limit) break;
    if (skip > 0) {
      const [counted] = await db.select({ n: sql<number>`count(*)::int` }).from(members).where(and(where, part));
      const n = counted?.n ?? 0;
      if (skip >= n) {
        skip -= n;
        continue;
      }
    }
    rows.push(...(await input.select(and(where, part), [desc(members.createdAt)], limit - rows.length, skip)));
    skip = 0;
  }
  return rows;
}
