// What `standingsOf` reads of members: account flags, record, and privacy instants, for any number of ids.
import { inArray } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { memberPrivacy } from '#bff/db/privacy-schema.ts';
import { members } from '#bff/db/schema.ts';

/** The rows of these members (ids in lower case, at least one). */
export function standingRows(executor: Pick<Db, 'select'>, ids: string[]) {
  return executor
    .select({
      id: members.id,
      onboarding: members.onboarding,
      disabled: members.disabled,
      erasedAt: memberPrivacy.erasedAt,
      pausedAt: memberPrivacy.matchmakingPausedAt,
    })
    .from(members)
    .where(inArray(members.id, ids));
}
