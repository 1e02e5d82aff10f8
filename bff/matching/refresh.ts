import { sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { upsertMatchProfile } from '#bff/matching/candidates.ts';

/**
 * Match profiles are written with each onboarding event (apply-update.ts, in its transaction).
 * Some changes reach a member by other ways: consent given back after a withdrawal, members
 * written before profiles existed, an import. This pass re-derives the profile of every member
 * who has steps 1-2 but no available profile (and is not disabled, paused or erased), so that
 * they enter the pool within one interval. Contract ends are checked at query time (decision 113).
 */
export async function refreshWaitingMatchProfiles(db: Db, now: Date): Promise<number> {
  const result = (await db.execute(sql`
    SELECT m.id::text AS id FROM members m
    LEFT JOIN match_profiles p ON p.member_id = m.id
    WHERE m.role = 'member' AND m.erased_at IS NULL AND NOT m.disabled AND m.matchmaking_paused_at IS NULL
      AND m.profile IS NOT NULL AND m.questionnaire IS NOT NULL
      AND (p.member_id IS NULL OR NOT p.available)`)) as unknown as { rows: { id: string }[] };
  const ids = result.rows.map((r) => r.id);
  let refreshed = 0;
  for (const id of ids) {
    await db.transaction(async (tx) => {
      const profile = await upsertMatchProfile(tx, id, now.getTime());
      if (profile?.available) refreshed += 1;
    });
  }
  return refreshed;
}

/** How often members who became active by time enter the pool of candidates. */
export const MATCH_PROFILE_REFRESH_INTERVAL_MS = 15 * 60_000;
