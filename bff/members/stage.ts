import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import { log } from '#bff/logger.ts';
import { membersWithoutStage, type StageValues, writeStages } from '#bff/members/store/stage.ts';
import { onboardingRecordSchema, type OnboardingRecord } from '#machines/onboarding/record.ts';
import { storedStageOf } from '#machines/onboarding/stored-stage.ts';

/**
 * The member's stage in the database (issue 64, decision 204): the columns every writer of the
 * onboarding record sets in the same statement, the SQL that reads the chart's state from them at
 * an instant, and the repair of rows whose record changed without them.
 */

const dateOf = (ms: number | null) => (ms === null ? null : new Date(ms));

/** The stage columns of `record`, to set with the record at row version `version`. */
export function stageColumns(record: OnboardingRecord, version: number) {
  const s = storedStageOf(record);
  return {
    stage: s.stage as string,
    stageSub: s.sub,
    renunciationEndsAt: dateOf(s.renunciationEndsAt),
    withdrawalEndsAt: dateOf(s.withdrawalEndsAt),
    termEndsAt: dateOf(s.termEndsAt),
    stageVersion: version,
  };
}

// The SQL that reads the chart's state from the columns (the lists' queries use it).

/**
 * Writes the stage of members whose record changed without it (a script, a test, rows from before
 * migration 0045: the backfill), from their stored record. Cheap when there is none (a partial
 * index). Each row is written only if its version is still the one read. Returns how many.
 */
export async function refreshStaleStages(db: Db, batch = 2000): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await membersWithoutStage(db, batch);
    if (rows.length === 0) return total;
    let written = 0;
    const values: StageValues[] = [];
    for (const row of rows) {
      const parsed = v.safeParse(onboardingRecordSchema, row.onboarding);
      if (!parsed.success) {
        // A corrupt record is an error where it is read; here it keeps no stage (never a false one).
        log.warn('étape non calculable : dossier illisible', { memberId: row.id });
        continue;
      }
      const c = stageColumns(parsed.output, row.version);
      const iso = (d: Date | null) => d?.toISOString() ?? null;
      values.push({
        id: row.id,
        version: row.version,
        stage: c.stage,
        stage_sub: c.stageSub,
        r: iso(c.renunciationEndsAt),
        w: iso(c.withdrawalEndsAt),
        t: iso(c.termEndsAt),
      });
      written += 1;
    }
    if (written > 0) {
      await writeStages(db, values);
    }
    total += written;
    // Unreadable records stay without a stage: stop rather than read them again forever.
    if (rows.length < batch || written === 0) return total;
  }
}
