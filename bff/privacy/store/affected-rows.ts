// How many rows a statement touched (its `RETURNING 1` rows), for the erasures' and purges' summaries.
import type { SQL } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';

/** Runs the statement and counts the rows it returns. */
export async function affectedRows(db: Db | Transaction, query: SQL): Promise<number> {
  const result = (await db.execute(query)) as unknown as { rows: unknown[] };
  return result.rows.length;
}
