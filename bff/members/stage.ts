import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';
import { log } from '#bff/logger.ts';
import { onboardingRecordSchema, type OnboardingRecord } from '#machines/onboarding/record.ts';
import { storedStageOf } from '#machines/onboarding/stored-stage.ts';
import type { TopState } from '#machines/onboarding/steps.ts';

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

/** The chart's state at `now`, dotted (`attente.delai-retractation`), as SQL (migration 0045's function). */
export function stageKeySql(now: Date): SQL<string | null> {
  return sql<
    string | null
  >`member_stage_key(${members.stage}, ${members.stageSub}, ${members.renunciationEndsAt}, ${members.withdrawalEndsAt}, ${members.termEndsAt}, ${now.toISOString()}::timestamptz)`;
}

/** Stages reached after the renunciation period, until the term's end. */
const SIGNED_STAGES: readonly string[] = ['frais-de-dossier', 'attente', 'membre-actif'];

/**
 * Members whose chart is in top-level state `top` at `now`, as a condition the indexes serve
 * (`members_stage`, `members_renunciation_ends_at`, `members_term_ends_at`). The same answer as
 * `split_part(member_stage_key(…), '.', 1) = top`: the stage test checks both against the chart.
 */
export function topStateSql(top: TopState, now: Date): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  if (top === 'attente-contrat') return sql`(${members.stage} = 'attente-contrat' OR ${members.renunciationEndsAt} > ${at})`;
  if (top === 'contrat-termine') return sql`(${members.renunciationEndsAt} <= ${at} AND ${members.termEndsAt} <= ${at})`;
  if (SIGNED_STAGES.includes(top))
    return sql`(${members.stage} = ${top} AND (${members.renunciationEndsAt} IS NULL OR (${members.renunciationEndsAt} <= ${at} AND (${members.termEndsAt} IS NULL OR ${members.termEndsAt} > ${at}))))`;
  // Time changes nothing in the others.
  return sql`${members.stage} = ${top}`;
}

/**
 * Writes the stage of members whose record changed without it (a script, a test, rows from before
 * migration 0045: the backfill), from their stored record. Cheap when there is none (a partial
 * index). Each row is written only if its version is still the one read. Returns how many.
 */
export async function refreshStaleStages(db: Db, batch = 2000): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await db
      .select({ id: members.id, onboarding: members.onboarding, version: members.version })
      .from(members)
      .where(and(isNull(members.stage), eq(members.role, 'member')))
      .limit(batch);
    if (rows.length === 0) return total;
    let written = 0;
    const values: Record<string, unknown>[] = [];
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
      await db.execute(sql`UPDATE members m SET stage = s.stage, stage_sub = s.stage_sub,
          renunciation_ends_at = s.r, withdrawal_ends_at = s.w, term_ends_at = s.t, stage_version = s.version
        FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS s(id uuid, version integer, stage text, stage_sub text, r timestamptz, w timestamptz, t timestamptz)
        WHERE m.id = s.id AND m.version = s.version`);
    }
    total += written;
    // Unreadable records stay without a stage: stop rather than read them again forever.
    if (rows.length < batch || written === 0) return total;
  }
}
