// Each member's privacy row (`member_privacy`): matchmaking paused, erased.
import type { Db, Transaction } from '#bff/db/database.ts';
import { memberPrivacy } from '#bff/db/privacy-schema.ts';
import { eq } from 'drizzle-orm';

/** The member's privacy row, if any. */
export async function privacyOf(db: Db | Transaction, memberId: string) {
  const [privacy] = await db.select().from(memberPrivacy).where(eq(memberPrivacy.id, memberId));
  return privacy;
}

/** Pauses matchmaking from `at`, or resumes it (`null`). */
export async function setMatchmakingPausedAt(tx: Transaction, memberId: string, at: Date | null): Promise<void> {
  await tx.update(memberPrivacy).set({ matchmakingPausedAt: at }).where(eq(memberPrivacy.id, memberId));
}

/** Marks the member erased at `now`, matchmaking paused with it. */
export async function markErased(tx: Transaction, memberId: string, now: Date): Promise<void> {
  await tx.update(memberPrivacy).set({ erasedAt: now, matchmakingPausedAt: now }).where(eq(memberPrivacy.id, memberId));
}
