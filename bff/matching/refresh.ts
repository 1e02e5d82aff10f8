import type { Db } from '#bff/db/database.ts';
import { upsertMatchProfile } from '#bff/matching/candidates.ts';
import { membersWaitingForProfile } from '#bff/matching/store/match-profiles.ts';

/**
 * Match profiles are written with each onboarding event (apply-update.ts, in its transaction).
 * Some changes reach a member by other ways: consent given back after a withdrawal, members
 * written before profiles existed, an import. This pass re-derives the profile of every member
 * who has steps 1-2 but no available profile (and is not disabled, paused or erased), so that
 * they enter the pool within one interval. Contract ends are checked at query time (decision 113).
 */
export async function refreshWaitingMatchProfiles(db: Db, now: Date): Promise<number> {
  const ids = await membersWaitingForProfile(db);
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
