// Members as introductions read them from `members` (and its privacy columns): addresses, names, profiles, staff's names.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { memberPrivacy } from '#bff/db/privacy-schema.ts';
import { members } from '#bff/db/schema.ts';
import type { MatchingExecutor } from '#bff/matching/store/match-profiles.ts';

/** The member's address and profile, and when they were erased. */
export async function personRow(executor: MatchingExecutor, memberId: string) {
  const [row] = await executor
    .select({ email: members.email, profile: members.profile, erasedAt: memberPrivacy.erasedAt })
    .from(members)
    .where(eq(members.id, memberId))
    .limit(1);
  return row;
}

/** The member's address and profile, and when they were erased or paused their matchmaking. */
export async function otherPersonRow(executor: MatchingExecutor, memberId: string) {
  const [row] = await executor
    .select({
      email: members.email,
      profile: members.profile,
      erasedAt: memberPrivacy.erasedAt,
      pausedAt: memberPrivacy.matchmakingPausedAt,
    })
    .from(members)
    .where(eq(members.id, memberId))
    .limit(1);
  return row;
}

/** The member's profile (steps 1-2), or undefined. */
export async function memberProfileRow(db: Db, memberId: string) {
  const [row] = await db.select({ profile: members.profile }).from(members).where(eq(members.id, memberId)).limit(1);
  return row;
}

/** The member's whole row, or undefined. */
export async function memberRow(db: Db, memberId: string) {
  const [row] = await db.select().from(members).where(eq(members.id, memberId)).limit(1);
  return row;
}

/** The profile of each of these members (distinct ids). */
export async function profileRows(db: Db, ids: readonly string[]) {
  return db
    .select({ id: members.id, profile: members.profile })
    .from(members)
    .where(sql`${members.id} = ANY(${`{${ids.join(',')}}`}::uuid[])`);
}

/** The address and onboarding record (a staff's name) of each of these people. */
export async function staffNameRows(db: Db, ids: readonly string[]) {
  return db
    .select({ id: members.id, email: members.email, onboarding: members.onboarding })
    .from(members)
    .where(sql`${members.id} = ANY(${`{${ids.join(',')}}`}::uuid[])`);
}
