// The pre-registrations (`pre_subscriptions`) a sign-up link stands for: found by token digest, claimed by a member.
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { preSubscriptions } from '#bff/db/schema.ts';

/** The pre-registration whose unspent token has this digest and has not expired at `now`, if any. */
export async function preSubscriptionByTokenHash(db: Db | Transaction, tokenHash: string, now: Date) {
  const [row] = await db
    .select()
    .from(preSubscriptions)
    .where(
      and(
        eq(preSubscriptions.signupTokenHash, tokenHash),
        isNull(preSubscriptions.memberId),
        gt(preSubscriptions.signupTokenExpiresAt, now),
      ),
    )
    .limit(1);
  return row;
}

/** Links the pre-registration of this token digest to the member and spends the token; how many rows. */
export async function claimByTokenHash(tx: Transaction, tokenHash: string, memberId: string, now: Date): Promise<number> {
  const claimed = await tx
    .update(preSubscriptions)
    .set({ memberId, convertedAt: now, signupTokenHash: null })
    .where(
      and(
        eq(preSubscriptions.signupTokenHash, tokenHash),
        isNull(preSubscriptions.memberId),
        gt(preSubscriptions.signupTokenExpiresAt, now),
      ),
    )
    .returning({ id: preSubscriptions.id });
  return claimed.length;
}

/** Links the pre-registration `id` to the member and spends its token; how many rows. */
export async function claimById(tx: Transaction, id: string, memberId: string, now: Date): Promise<number> {
  const claimed = await tx
    .update(preSubscriptions)
    .set({ memberId, convertedAt: now, signupTokenHash: null })
    .where(and(eq(preSubscriptions.id, id), isNull(preSubscriptions.memberId), gt(preSubscriptions.signupTokenExpiresAt, now)))
    .returning({ id: preSubscriptions.id });
  return claimed.length;
}

/** The postcode and city of the member's latest linked pre-registration, if any. */
export async function latestPrefill(db: Db, memberId: string): Promise<{ postcode: string; city: string } | undefined> {
  const [row] = await db
    .select({ postcode: preSubscriptions.zipCode, city: preSubscriptions.city })
    .from(preSubscriptions)
    .where(eq(preSubscriptions.memberId, memberId))
    .orderBy(desc(preSubscriptions.createdAt))
    .limit(1);
  return row;
}
