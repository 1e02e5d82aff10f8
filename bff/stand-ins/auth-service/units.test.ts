import { getTableColumns, getTableName } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import type { Database } from '#bff/db/database.ts';
import { appMigrations, migrate } from '#bff/db/migrate.ts';
import { parseGoDuration } from '#bff/stand-ins/auth-service/go-duration.ts';
import { authMigrations } from '#bff/stand-ins/auth-service/store/migrations.ts';
import { ServiceLimit } from '#bff/stand-ins/auth-service/rate-limit.ts';
import * as schema from '#bff/stand-ins/auth-service/store/schema.ts';
import { mergeMetadata } from '#bff/stand-ins/auth-service/serialize.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';

describe('parseGoDuration', () => {
  it.each([
    ['876000h', 876_000 * 3_600_000],
    ['1h30m', 5_400_000],
    ['1.5h', 5_400_000],
    ['90s', 90_000],
    ['250ms', 250],
    ['0', 0],
  ])('reads %s', (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });

  it.each(['', 'none', '10', 'h', '-1h', '1d', '1h 30m', 'forever'])('refuses %j', (text) => {
    expect(parseGoDuration(text)).toBeUndefined();
  });
});

describe('ServiceLimit (rate-limiter-flexible on the service clock, decision 220)', () => {
  it('allows its points in a window opened by the first request, then none until the window ends on the service clock', async () => {
    const clock = fakeClock();
    const limit = new ServiceLimit(clock, { points: 30, durationSeconds: 60 });
    for (let i = 0; i < 30; i += 1) expect(await limit.take('a')).toBe(true);
    expect(await limit.take('a')).toBe(false);
    // Each key's window opens with its first request: 'b' half a minute after 'a'.
    clock.advance(30_000);
    expect(await limit.take('b')).toBe(true);
    // No refill inside the window (GoTrue's bucket gave one back every 2 s)…
    clock.advance(29_999);
    expect(await limit.take('a')).toBe(false);
    // …the whole burst once it ends, on the service's clock, not the system's.
    clock.advance(1);
    for (let i = 0; i < 30; i += 1) expect(await limit.take('a')).toBe(true);
    expect(await limit.take('a')).toBe(false);
    // 'b' is still in its own window: 29 left, then none until it ends.
    for (let i = 0; i < 29; i += 1) expect(await limit.take('b')).toBe(true);
    expect(await limit.take('b')).toBe(false);
    clock.advance(30_000);
    expect(await limit.take('b')).toBe(true);
  });

  it('takes atomically: of 50 requests at once, exactly its points pass', async () => {
    const limit = new ServiceLimit(fakeClock(), { points: 10, durationSeconds: 900 });
    const taken = await Promise.all(Array.from({ length: 50 }, () => limit.take('email:a@b.fr')));
    expect(taken.filter(Boolean)).toHaveLength(10);
  });

  it('gives back a point taken for nothing, within its window only; tells whether one is left', async () => {
    const clock = fakeClock();
    const limit = new ServiceLimit(clock, { points: 2, durationSeconds: 60 });
    expect(await limit.hasPoint('a')).toBe(true);
    expect(await limit.take('a')).toBe(true);
    expect(await limit.take('a')).toBe(true);
    expect(await limit.hasPoint('a')).toBe(false);
    await limit.giveBack('a');
    expect(await limit.hasPoint('a')).toBe(true);
    expect(await limit.take('a')).toBe(true);
    expect(await limit.take('a')).toBe(false);
    // A point given back after its window ended adds nothing to the next one.
    clock.advance(60_000);
    await limit.giveBack('a');
    expect(await limit.take('a')).toBe(true);
    expect(await limit.take('a')).toBe(true);
    expect(await limit.take('a')).toBe(false);
  });
});

describe('mergeMetadata', () => {
  it('adds and replaces keys; null deletes one', () => {
    expect(mergeMetadata({ a: 1, b: 2, c: { x: 1 } }, { b: null, c: { y: 2 }, d: 'd' })).toEqual({ a: 1, c: { y: 2 }, d: 'd' });
  });
});

describe('auth migrations', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase([authMigrations]);
  });
  afterAll(() => database.close());

  it('are idempotent', async () => {
    expect(await migrate(database, [appMigrations, authMigrations])).toEqual([]);
  });

  it('create every table and column the drizzle schema declares, in the embedded_auth schema', async () => {
    const columns = await database.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'embedded_auth'",
    );
    const present = new Set(columns.map((c) => `${c.table_name}.${c.column_name}`));
    const tables = (Object.values(schema) as unknown[]).filter((t): t is PgTable => t instanceof PgTable);
    expect(tables.map((t) => getTableName(t)).sort()).toEqual(
      [
        'flow_state',
        'identities',
        'mail_requests',
        'mfa_challenges',
        'mfa_factors',
        'one_time_tokens',
        'refresh_tokens',
        'sessions',
        'signing_keys',
        'users',
      ].sort(),
    );
    for (const table of tables) {
      for (const column of Object.values(getTableColumns(table))) {
        expect(present, `${getTableName(table)}.${column.name}`).toContain(`${getTableName(table)}.${column.name}`);
      }
    }
  });
});
