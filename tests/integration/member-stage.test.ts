import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';
import { insertMember } from '#bff/members/members.ts';
import { refreshStaleStages, stageColumns } from '#bff/members/stage.ts';
import { stageKeySql, topStateSql } from '#bff/members/store/stage.ts';
import { DAY_MS } from '#machines/onboarding/instant.ts';
import { planIds } from '#machines/onboarding/plans.ts';
import { emptyRecord, type OnboardingRecord } from '#machines/onboarding/record.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { stageAt, storedStageOf } from '#machines/onboarding/stored-stage.ts';
import { contractEndStates, stateKey, stepIds, type TopState, topStateOf } from '#machines/onboarding/steps.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';

/**
 * The stage the database computes (migration 0045, decision 204) is the chart's: for generated
 * records, stored as every writer stores them, `member_stage_key` and the list's top-level filter
 * give, at the instants that move the stage (and either side of them) and at random ones, exactly
 * the state the chart restored from the record gives.
 */

const TOPS: readonly TopState[] = [...stepIds, 'membre-actif', 'resiliation-demandee', ...contractEndStates, 'desactive'];
const START = Date.parse('2025-12-20T00:00:00Z');
const SPAN = 2 * 365 * DAY_MS;

const often = fc.constantFrom(true, true, true, true, true, true, true, true, true, false);
const rarely = fc.constantFrom(false, false, false, false, false, true);
const instant = fc.integer({ min: START, max: START + SPAN }).map((ms) => new Date(ms).toISOString());
/** An end of the contract (renounced, withdrawn, termination) in one record out of twelve. */
const seldom = fc.oneof({ weight: 11, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: instant });

const recordArb: fc.Arbitrary<OnboardingRecord> = fc
  .record({
    gender: fc.constantFrom('homme' as const, 'femme' as const),
    selectedPlanId: fc.option(fc.constantFrom(...planIds), { freq: 6 }),
    renouncedWithdrawalRight: fc.constantFrom(null, true, false),
    profileCompleted: often,
    questionnaireCompleted: often,
    formPersonnalInfoCompleted: often,
    applicationFeesPaid: often,
    preContractInfoAcknowledged: often,
    onboardingMeetingDateSelected: often,
    onboardingMeetingReserved: often,
    onboardingMeetingDate: fc.option(instant, { freq: 3 }),
    onboardingMeetingDone: often,
    subscriptionContractFormCompleted: often,
    subscriptionDate: fc.option(instant, { freq: 8 }),
    subscriptionFeesPaid: often,
    matchmakingMeetingDone: fc.boolean(),
    disabled: rarely,
    contractRenouncedAt: seldom,
    contractWithdrawnAt: seldom,
    terminationRequestedAt: seldom,
    terminatedAt: seldom,
  })
  .map((fields) => {
    const id = randomUUID();
    return { ...emptyRecord(id, `${id}@example.fr`, fields.gender), ...fields };
  });

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/** The instants that move a record's stage, a millisecond either side, and the record's dates. */
function instantsOf(record: OnboardingRecord): number[] {
  const s = storedStageOf(record);
  const marks = [s.renunciationEndsAt, s.withdrawalEndsAt, s.termEndsAt].filter((m): m is number => m !== null);
  return marks.flatMap((m) => [m - 1, m, m + 1]);
}

describe('the stage in the database follows the chart', () => {
  it('member_stage_key and the top-level filter equal the chart restored from the record, at every instant that matters', async () => {
    const db = database.db;
    await fc.assert(
      fc.asyncProperty(
        fc.array(recordArb, { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: START - 30 * DAY_MS, max: START + SPAN + 400 * DAY_MS }), { minLength: 1, maxLength: 3 }),
        async (records, randomInstants) => {
          await db.delete(members);
          await db.insert(members).values(
            records.map((record) => ({
              id: record.id,
              email: record.email,
              gender: record.gender,
              role: 'member',
              onboarding: record,
              disabled: record.disabled,
              ...stageColumns(record, 0),
            })),
          );
          const instants = [...new Set([...records.flatMap(instantsOf), ...randomInstants])];
          for (const at of instants) {
            const now = new Date(at);
            const rows = await db
              .select({
                id: members.id,
                key: stageKeySql(now),
                tops: sql<string[]>`array_remove(ARRAY[${sql.join(
                  TOPS.map((top) => sql`CASE WHEN ${topStateSql(top, now)} THEN ${top}::text END`),
                  sql`, `,
                )}], NULL)`,
              })
              .from(members);
            const byId = new Map(rows.map((r) => [r.id, r]));
            for (const record of records) {
              const chart = stateFromRecord(record, at);
              const row = byId.get(record.id);
              const context = `${record.id} at ${now.toISOString()}: ${JSON.stringify(record)}`;
              expect(row?.key, context).toBe(stateKey(chart));
              expect(row?.tops, context).toEqual([topStateOf(chart)]);
              expect(stateKey(stageAt(storedStageOf(record), at)), context).toBe(stateKey(chart));
            }
          }
        },
      ),
      { numRuns: Number(process.env.STAGE_RUNS ?? 60) },
    );
  });

  it('a record changed without its stage loses it, and the repair writes it again from the record', async () => {
    const db = database.db;
    const id = randomUUID();
    await db.transaction((tx) => insertMember(tx, { id, email: `${id}@example.fr`, gender: 'femme' }));
    const read = async () => (await db.select().from(members).where(eq(members.id, id)))[0];
    expect((await read())?.stage).toBe('profil');
    const record: OnboardingRecord = { ...emptyRecord(id, `${id}@example.fr`, 'femme'), profileCompleted: true };
    // A writer that forgets the stage (a script, a test): the trigger clears it rather than leave it false.
    await db.update(members).set({ onboarding: record, version: 1 }).where(eq(members.id, id));
    expect((await read())?.stage).toBeNull();
    expect(await refreshStaleStages(db)).toBeGreaterThanOrEqual(1);
    const repaired = await read();
    expect(repaired?.stage).toBe('questionnaire-profil');
    expect(repaired?.stageVersion).toBe(1);
    // A write of another column keeps it.
    await db
      .update(members)
      .set({ email: `autre-${id}@example.fr`, version: 2 })
      .where(eq(members.id, id));
    expect((await read())?.stage).toBe('questionnaire-profil');
  });
});
