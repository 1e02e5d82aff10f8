import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMigrations } from '#bff/stand-ins/auth-service/store/migrations.ts';
import { hostedAuthMigrations, migrationSetsOf, sessionsTableOf } from '#bff/auth/sessions-table.ts';
import type { Database } from '#bff/db/database.ts';
import { appMigrations, migrate } from '#bff/db/migrate.ts';
import { cachedMember } from '#bff/auth/member-cache.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';

/**
 * The hosted project's sessions (decision 100): with SUPABASE_* set, the member cache reads
 * `auth.sessions` in the project's own database, and the hosted migration set puts the same
 * triggers on it as the embedded service's. A stand-in of GoTrue's table (the columns read, and
 * its `aal_level` enum) plays the project here.
 */
let database: Database;
const heard: (string | null)[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  await database.execInTransaction(`
    CREATE SCHEMA auth;
    CREATE TYPE auth.aal_level AS ENUM ('aal1', 'aal2', 'aal3');
    CREATE TABLE auth.sessions (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL,
      created_at timestamptz,
      updated_at timestamptz,
      factor_id uuid,
      aal auth.aal_level,
      not_after timestamptz,
      refreshed_at timestamp
    );`);
  database.changes.subscribe((id) => heard.push(id));
});
afterAll(() => database?.close());

async function member(): Promise<string> {
  const id = randomUUID();
  await database.query(`INSERT INTO members (id, email, gender, onboarding) VALUES ($1, $2, 'femme', '{}'::jsonb)`, [
    id,
    `${id}@example.fr`,
  ]);
  return id;
}

/** Waits for the feed to carry `id` (PGlite and PostgreSQL deliver at commit, asynchronously). */
async function heardOf(id: string | null) {
  for (let i = 0; i < 200 && !heard.includes(id); i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  return heard.includes(id);
}

describe('sessions table and migration sets', () => {
  it('names the table and the sets from the configuration alone', () => {
    expect(sessionsTableOf({ supabase: undefined })).toBe('embedded_auth.sessions');
    expect(sessionsTableOf({ supabase: { url: 'https://x.supabase.co' } })).toBe('auth.sessions');
    expect(migrationSetsOf({ supabase: undefined }, authMigrations)).toEqual([appMigrations, authMigrations]);
    expect(migrationSetsOf({ supabase: {} }, authMigrations)).toEqual([appMigrations, hostedAuthMigrations]);
  });

  it('applies the hosted triggers once; running them again (DROP … IF EXISTS) is harmless', async () => {
    expect(await migrate(database, [hostedAuthMigrations])).toEqual(['hosted-auth/0001_session_changes.sql']);
    expect(await migrate(database, [hostedAuthMigrations])).toEqual([]);
    await database.query('DELETE FROM schema_migrations WHERE set_name = $1', ['hosted-auth']);
    expect(await migrate(database, [hostedAuthMigrations])).toEqual(['hosted-auth/0001_session_changes.sql']);
    const triggers = await database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_trigger WHERE tgrelid = 'auth.sessions'::regclass AND NOT tgisinternal",
    );
    expect(triggers[0]?.n).toBe(3);
  });

  it('each session that starts, changes level or ends announces its user; refreshes do not', async () => {
    const id = await member();
    const session = randomUUID();
    heard.length = 0;
    await database.query(`INSERT INTO auth.sessions (id, user_id, aal) VALUES ($1, $2, 'aal1')`, [session, id]);
    expect(await heardOf(id)).toBe(true);
    // On PostgreSQL a notification may be heard on several connections, the copies a moment
    // apart: let them all arrive before listening for the refresh, which must announce nothing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    heard.length = 0;
    await database.query('UPDATE auth.sessions SET refreshed_at = now() WHERE id = $1', [session]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(heard).not.toContain(id);
    await database.query(`UPDATE auth.sessions SET aal = 'aal2' WHERE id = $1`, [session]);
    expect(await heardOf(id)).toBe(true);
    heard.length = 0;
    await database.query('DELETE FROM auth.sessions WHERE id = $1', [session]);
    expect(await heardOf(id)).toBe(true);
    heard.length = 0;
    await database.query('TRUNCATE auth.sessions');
    expect(await heardOf(null)).toBe(true);
  });

  it('the member cache reads the live sessions of auth.sessions with the row, ended ones left out', async () => {
    const id = await member();
    const [live, lowered, expired] = [randomUUID(), randomUUID(), randomUUID()];
    await database.query(
      `INSERT INTO auth.sessions (id, user_id, aal, not_after) VALUES
        ($1, $4, 'aal2', NULL), ($2, $4, 'aal1', now() + interval '1 day'), ($3, $4, 'aal2', now() - interval '1 second')`,
      [live, lowered, expired, id],
    );
    const cached = await cachedMember(database, id, 'auth.sessions');
    expect(cached?.row.id).toBe(id);
    expect({ ...cached?.sessions }).toEqual({ [live]: 'aal2', [lowered]: 'aal1' });
    const nobody = await member();
    expect({ ...(await cachedMember(database, nobody, 'auth.sessions'))?.sessions }).toEqual({});
  });
});
