// The member's stage columns (migration 0045) as SQL: the chart's state at an instant, the rows to repair.
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';
import type { TopState } from '#machines/onboarding/steps.ts';

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

/** Up to `batch` members without a stage (a partial index serves it): their record and version. */
export function membersWithoutStage(db: Db, batch: number): Promise<{ id: string; onboarding: unknown; version: number }[]> {
  return db
    .select({ id: members.id, onboarding: members.onboarding, version: members.version })
    .from(members)
    .where(and(isNull(members.stage), eq(members.role, 'member')))
    .limit(batch);
}

/** One member's stage columns to write, at the version they were computed from (ISO instants). */
export interface StageValues {
  id: string;
  version: number;
  stage: string;
  stage_sub: string | null;
  r: string | null;
  w: string | null;
  t: string | null;
}

/** Writes the stages, each row only if its version is still the one read. */
export async function writeStages(db: Db, values: readonly StageValues[]): Promise<void> {
  await db.execute(sql`UPDATE members m SET stage = s.stage, stage_sub = s.stage_sub,
          renunciation_ends_at = s.r, withdrawal_ends_at = s.w, term_ends_at = s.t, stage_version = s.version
        FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS s(id uuid, version integer, stage text, stage_sub text, r timestamptz, w timestamptz, t timestamptz)
        WHERE m.id = s.id AND m.version = s.version`);
}
