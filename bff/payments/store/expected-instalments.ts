// Stores the lines the monthly schedules still expect (`expected_instalments`) and the members marked to recompute (`expected_instalments_stale`).
import { sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';

type Executing = Pick<Db, 'execute'>;

/** One stored expected line, as `jsonb_to_recordset` reads it. */
export interface ExpectedLineRow {
  member_id: string;
  number: number;
  subscription_id: string;
  plan_id: string;
  of: number;
  due_at: string;
  amount_cents: number;
  status: string;
  ends_at: string | null;
}

async function rowsOf<Row>(executor: Executing, query: ReturnType<typeof sql>): Promise<Row[]> {
  return ((await executor.execute(query)) as unknown as { rows: Row[] }).rows;
}

/** The marks of `memberIds` with their generation. */
export async function staleMarksOf(executor: Executing, memberIds: readonly string[]) {
  const ids = JSON.stringify(memberIds);
  return rowsOf<{ member_id: string; generation: string }>(
    executor,
    sql`SELECT member_id, generation::text AS generation FROM expected_instalments_stale
        WHERE member_id IN (SELECT value::uuid FROM jsonb_array_elements_text(${ids}::jsonb))`,
  );
}

/** Replaces the expected lines of `memberIds` by `lines`. */
export async function replaceExpectedLines(
  executor: Executing,
  memberIds: readonly string[],
  lines: readonly ExpectedLineRow[],
): Promise<void> {
  const ids = JSON.stringify(memberIds);
  await executor.execute(
    sql`DELETE FROM expected_instalments WHERE member_id IN (SELECT value::uuid FROM jsonb_array_elements_text(${ids}::jsonb))`,
  );
  if (lines.length > 0)
    await executor.execute(sql`INSERT INTO expected_instalments AS x
        (member_id, number, subscription_id, plan_id, of, due_at, amount_cents, status, ends_at)
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(lines)}::jsonb) AS l(member_id uuid, number integer, subscription_id text,
        plan_id text, of integer, due_at timestamptz, amount_cents integer, status text, ends_at timestamptz)
      ON CONFLICT (member_id, number) DO UPDATE SET subscription_id = excluded.subscription_id, plan_id = excluded.plan_id,
        of = excluded.of, due_at = excluded.due_at, amount_cents = excluded.amount_cents, status = excluded.status, ends_at = excluded.ends_at`);
}

/** Clears the marks read (`staleMarksOf`), not those renewed since. */
export async function clearStaleMarks(executor: Executing, marks: readonly { member_id: string; generation: string }[]): Promise<void> {
  if (marks.length > 0)
    await executor.execute(sql`DELETE FROM expected_instalments_stale s
      USING jsonb_to_recordset(${JSON.stringify(marks)}::jsonb) AS k(member_id uuid, generation bigint)
      WHERE s.member_id = k.member_id AND s.generation = k.generation`);
}

export async function isMarkedStale(executor: Executing, memberId: string): Promise<boolean> {
  const [marked] = await rowsOf<{ n: number }>(
    executor,
    sql`SELECT 1 AS n FROM expected_instalments_stale WHERE member_id = ${memberId}::uuid`,
  );
  return marked !== undefined;
}

/** Up to `batch` marked members after `after`, in member order. */
export async function markedMembersAfter(db: Db, after: string, batch: number) {
  return rowsOf<{ member_id: string }>(
    db,
    sql`SELECT member_id::text FROM expected_instalments_stale WHERE member_id > ${after}::uuid ORDER BY member_id LIMIT ${batch}`,
  );
}
