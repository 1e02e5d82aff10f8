import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#bff/db/database.ts';
import { members, onboardingEvents } from '#bff/db/schema.ts';
import { recordDailyCapReached } from '#bff/members/cap-history.ts';
import { emptyRecord } from '#machines/onboarding/record.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

const linesOf = async (memberId: string, context: string) =>
  database.db
    .select()
    .from(onboardingEvents)
    .where(and(eq(onboardingEvents.memberId, memberId), eq(onboardingEvents.context, context)));

describe('a daily ceiling’s line in the member’s history', () => {
  it('is written once a day, even when refusals report it at the same moment', async () => {
    const id = randomUUID();
    await database.db
      .insert(members)
      .values({ id, email: `${id}@exemple.fr`, gender: 'femme', role: 'member', onboarding: emptyRecord(id, `${id}@exemple.fr`, 'femme') });
    const now = new Date('2026-12-14T10:00:00Z');
    const input = { memberId: id, context: 'recovery_code_cap', event: 'CODE_CAP', payload: { kind: 'recovery', reached: 'tries' } };
    // Every connection of the pool open first, so that the reports really run side by side.
    await Promise.all(Array.from({ length: 10 }, () => database.db.execute(sql`SELECT pg_sleep(0.02)`)));
    const written = await Promise.all(Array.from({ length: 20 }, () => recordDailyCapReached(database.db, now, input)));
    expect(written.filter(Boolean)).toHaveLength(1);
    expect(await linesOf(id, 'recovery_code_cap')).toHaveLength(1);
    // Within the day: nothing more; a day later: one more line.
    expect(await recordDailyCapReached(database.db, new Date(now.getTime() + 23 * 3600_000), input)).toBe(false);
    expect(await recordDailyCapReached(database.db, new Date(now.getTime() + 24 * 3600_000 + 1), input)).toBe(true);
    expect(await linesOf(id, 'recovery_code_cap')).toHaveLength(2);
  });

  it('writes nothing for an address that is no member', async () => {
    const input = { memberId: randomUUID(), context: 'recovery_code_cap', event: 'CODE_CAP', payload: {} };
    expect(await recordDailyCapReached(database.db, new Date(), input)).toBe(false);
  });
});
