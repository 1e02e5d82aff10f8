import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '#bff/db/database.ts';

export interface MigrationSet {
  /** A name that scopes the set in the bookkeeping table (e.g. `app`, `auth`). */
  name: string;
  /** Folder of `NNNN_title.sql` files, applied in file-name order. */
  dir: string;
}

export const appMigrations: MigrationSet = { name: 'app', dir: join(import.meta.dirname, 'migrations') };

/**
 * Applies the SQL files not yet applied, each in its own transaction together with its
 * bookkeeping row, under an advisory lock so that two instances starting at once do not race.
 * Idempotent: running it again applies nothing. Returns the files applied.
 */
export async function migrate(database: Database, sets: MigrationSet[]): Promise<string[]> {
  // Under the same lock: two concurrent CREATE TABLE IF NOT EXISTS on a fresh database collide
  // (duplicate key in pg_type) — found by tests/faults/two-instances.test.ts.
  await database.execInTransaction(`SELECT pg_advisory_xact_lock(72657301);
  CREATE TABLE IF NOT EXISTS schema_migrations (
    set_name text NOT NULL,
    file text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (set_name, file)
  )`);
  const applied: string[] = [];
  for (const set of sets) {
    const files = readdirSync(set.dir)
      .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
      .sort();
    for (const file of files) {
      const body = readFileSync(join(set.dir, file), 'utf8');
      const name = `${set.name}/${file}`;
      // One transaction: lock, check, apply, record — all or nothing.
      const guarded = `SELECT pg_advisory_xact_lock(72657301);
DO $migrate$ BEGIN
  IF EXISTS (SELECT 1 FROM schema_migrations WHERE set_name = ${literal(set.name)} AND file = ${literal(file)}) THEN
    RAISE EXCEPTION 'already-applied' USING ERRCODE = 'P0001';
  END IF;
END $migrate$;
${body}
;
INSERT INTO schema_migrations (set_name, file) VALUES (${literal(set.name)}, ${literal(file)});`;
      const done = await database.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM schema_migrations WHERE set_name = $1 AND file = $2',
        [set.name, file],
      );
      if ((done[0]?.n ?? 0) > 0) continue;
      try {
        await database.execInTransaction(guarded);
        applied.push(name);
      } catch (error) {
        if (error instanceof Error && error.message.includes('already-applied')) continue;
        throw new Error(`Migration ${name} a échoué : ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  return applied;
}

function literal(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
