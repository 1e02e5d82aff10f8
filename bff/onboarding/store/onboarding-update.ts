// The onboarding event's statement (decision 129): its event row inserted by a CTE, the member updated under its version.
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Transaction } from '#bff/db/database.ts';
import { memberPrivacy } from '#bff/db/privacy-schema.ts';
import { members, onboardingEvents } from '#bff/db/schema.ts';
import { STORED_MATCH_PROFILE_SQL } from '#bff/matching/store/match-profiles.ts';
import { PAY_IN_FULL_JSON_SQL } from '#bff/onboarding/store/plan-settings.ts';

/**
 * Inserts `event` and sets `columns` on the member if its version is still `readVersion`, in one
 * statement. Returns, read in the statement's snapshot: the member's privacy instants, the event's
 * id, the transaction's id, the plan setting's JSON and the stored match profile's JSON
 * (the matching folder's column); undefined when the version had moved.
 * A second event at the same version fails on the log's unique (member_id, version).
 */
export async function updateMemberWithEvent(
  tx: Transaction,
  input: {
    memberId: string;
    readVersion: number;
    event: typeof onboardingEvents.$inferInsert;
    columns: Partial<typeof members.$inferInsert>;
  },
) {
  const event = tx.$with('event').as(tx.insert(onboardingEvents).values(input.event).returning({ id: onboardingEvents.id }));
  const [updated] = await tx
    .with(event)
    .update(members)
    .set(input.columns)
    .where(and(eq(members.id, input.memberId), eq(members.version, input.readVersion)))
    .returning({
      pausedAt: memberPrivacy.matchmakingPausedAt,
      erasedAt: memberPrivacy.erasedAt,
      eventId: sql<number>`(SELECT id FROM ${event})`.mapWith(Number),
      transaction: sql<string>`pg_current_xact_id()::text`,
      payInFull: sql<string | null>`${PAY_IN_FULL_JSON_SQL}`,
      storedProfile: sql<string | null>`${STORED_MATCH_PROFILE_SQL}`,
    });
  return updated;
}
