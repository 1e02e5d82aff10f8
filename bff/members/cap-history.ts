import type { Db } from '#bff/db/database.ts';
import { recordOf } from '#bff/members/members.ts';
import { bumpMemberVersion, lockMemberId } from '#bff/members/store/members.ts';
import { eventOfContextSince, insertOnboardingEvent } from '#bff/members/store/onboarding-events.ts';
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
    const locked = await lockMemberId(tx, input.memberId);
    if (!locked) return false;
    const recent = await eventOfContextSince(tx, input.memberId, input.context, new Date(now.getTime() - DAY_MS));
    if (recent) return false;
    // As every logged event: the version moves with it (UNIQUE (member_id, version)).
    const row = await bumpMemberVersion(tx, input.memberId, now);
    if (!row) return false;
    const state = row.role === 'staff' ? 'equipe' : stateKey(stateFromRecord(recordOf(row), now.getTime()));
    await insertOnboardingEvent(tx, {
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
