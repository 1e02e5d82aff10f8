import { getTableColumns, getTableName } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#bff/db/database.ts';
import { appMigrations, migrate } from '#bff/db/migrate.ts';
import * as schema from '#bff/db/schema.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';

describe('migrations', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('are idempotent: a second run applies nothing and keeps the data', async () => {
    await database.query("INSERT INTO settings (key, value) VALUES ('probe', '1')");
    expect(await migrate(database, [appMigrations])).toEqual([]);
    const rows = await database.query<{ value: number }>("SELECT value FROM settings WHERE key = 'probe'");
    expect(rows).toEqual([{ value: 1 }]);
  });

  it('create every table and column the drizzle schema declares', async () => {
    const columns = await database.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'",
    );
    const present = new Set(columns.map((c) => `${c.table_name}.${c.column_name}`));
    const tables = Object.values(schema).filter((t: unknown): t is PgTable => t instanceof PgTable);
    expect(tables.length).toBeGreaterThan(4);
    for (const table of tables) {
      for (const column of Object.values(getTableColumns(table))) {
        expect(present, `${getTableName(table)}.${column.name}`).toContain(`${getTableName(table)}.${column.name}`);
      }
    }
  });

  it('keep the onboarding event log append-only', async () => {
    await database.query(
      "INSERT INTO members (id, email, gender, onboarding) VALUES ('00000000-0000-4000-8000-000000000001', 'a@example.fr', 'femme', '{}')",
    );
    await database.query(
      "INSERT INTO onboarding_events (member_id, context, event, payload, from_state, to_state, actor_role, version) VALUES ('00000000-0000-4000-8000-000000000001', 'x', 'X', '{}', 'a', 'b', 'member', 1)",
    );
    await expect(database.query('UPDATE onboarding_events SET context = $1', ['y'])).rejects.toThrow(/append-only/);
  });
});
