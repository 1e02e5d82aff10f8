import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { members, onboardingEvents } from '#bff/db/schema.ts';
import { recordOf } from '#bff/members/members.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { stateKey } from '#machines/onboarding/steps.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * One line a day in a member's history (`onboarding_events`, shown to staff on the member's
 * file) when a daily ceiling of six-digit codes refuses them: the contract's signing code
 * (decision 182) and the auth service's codes (decision 188). The chart does not move; the
 * row's version does, as with every logged event.
 */
export async function recordDailyCapReached(
  db: Db,
  now: Date,
  input: { memberId: string; context: string; event: string; payload: Record<string, unknown> },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    // The member's row locked first: two refusals at the same moment (the service reports each one
    // without waiting) write one line, not two (READ COMMITTED sees no uncommitted line).
    const [locked] = await tx.select({ id: members.id }).from(members).where(eq(members.id, input.memberId)).for('update');
    if (!locked) return false;
    const [recent] = await tx
      .select({ id: onboardingEvents.id })
      .from(onboardingEvents)
      .where(
        and(
          eq(onboardingEvents.memberId, input.memberId),
          eq(onboardingEvents.context, input.context),
          gt(onboardingEvents.createdAt, new Date(now.getTime() - DAY_MS)),
        ),
      )
      .limit(1);
    if (recent) return false;
    // As every logged event: the version moves with it (UNIQUE (member_id, version)).
    const [row] = await tx
      .update(members)
      .set({ version: sql`${members.version} + 1`, updatedAt: now })
      .where(eq(members.id, input.memberId))
      .returning();
    if (!row) return false;
    const state = row.role === 'staff' ? 'equipe' : stateKey(stateFromRecord(recordOf(row), now.getTime()));
    await tx.insert(onboardingEvents).values({
      memberId: input.memberId,
      context: input.context,
      event: input.event,
      payload: { context: input.context, ...input.payload },
      fromState: state,
      toState: state,
      actorId: null,
      actorRole: 'system',
      version: row.version,
      createdAt: now,
    });
    return true;
  });
}
