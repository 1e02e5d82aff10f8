// Stores the checkout sessions recorded from Stripe's webhook (and the stand-in's): upserts, reads, their use.
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { checkoutSessions } from '#bff/db/schema.ts';

/**
 * Inserts the session, or merges it monotonically into the recorded one: known fields are kept,
 * status complete and payment paid are never downgraded; `updatedAt` is `now`.
 */
export async function upsertCheckoutSession(tx: Transaction, values: typeof checkoutSessions.$inferInsert, now: Date): Promise<void> {
  const t = checkoutSessions;
  await tx
    .insert(t)
    .values(values)
    .onConflictDoUpdate({
      target: t.id,
      set: {
        memberId: sql`coalesce(${t.memberId}, excluded.member_id)`,
        offerId: sql`coalesce(${t.offerId}, excluded.offer_id)`,
        paymentLink: sql`coalesce(${t.paymentLink}, excluded.payment_link)`,
        amountTotal: sql`coalesce(${t.amountTotal}, excluded.amount_total)`,
        currency: sql`coalesce(${t.currency}, excluded.currency)`,
        customerEmail: sql`coalesce(${t.customerEmail}, excluded.customer_email)`,
        subscriptionId: sql`coalesce(${t.subscriptionId}, excluded.subscription_id)`,
        status: sql`case when ${t.status} = 'complete' then ${t.status} else excluded.status end`,
        paymentStatus: sql`case when ${t.paymentStatus} in ('paid', 'no_payment_required') then ${t.paymentStatus} else excluded.payment_status end`,
        updatedAt: now,
      },
    });
}

export async function setSessionContract(tx: Transaction, sessionId: string, contractId: number | null): Promise<void> {
  await tx.update(checkoutSessions).set({ contractId }).where(eq(checkoutSessions.id, sessionId));
}

/** Marks the session used at `now` by `context` unless it was: the ids marked (none when used before). */
export async function consumeSession(tx: Transaction, sessionId: string, now: Date, context: 'app' | 'sub') {
  return tx
    .update(checkoutSessions)
    .set({ consumedAt: now, consumedByContext: context })
    .where(and(eq(checkoutSessions.id, sessionId), isNull(checkoutSessions.consumedAt)))
    .returning({ id: checkoutSessions.id });
}

/** The offer of a session that opened `subscriptionId`. */
export async function offerSessionOfSubscription(db: Db, subscriptionId: string) {
  const [session] = await db
    .select({ offerId: checkoutSessions.offerId })
    .from(checkoutSessions)
    .where(eq(checkoutSessions.subscriptionId, subscriptionId))
    .limit(1);
  return session;
}

/** The first session of `subscriptionId` that names a member. */
export async function firstMemberSessionOfSubscription(executor: Pick<Db, 'select'>, subscriptionId: string) {
  const [session] = await executor
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.subscriptionId, subscriptionId), isNotNull(checkoutSessions.memberId)))
    .orderBy(asc(checkoutSessions.createdAt))
    .limit(1);
  return session;
}

/** The sessions of contract `contractId` that confirmed a step and took money, oldest first. */
export async function chargedSessionsOfContract(executor: Pick<Db, 'select'>, contractId: number) {
  return executor
    .select({
      id: checkoutSessions.id,
      offerId: checkoutSessions.offerId,
      amount: checkoutSessions.amountTotal,
      currency: checkoutSessions.currency,
    })
    .from(checkoutSessions)
    .where(
      and(
        eq(checkoutSessions.contractId, contractId),
        isNotNull(checkoutSessions.consumedAt),
        eq(checkoutSessions.paymentStatus, 'paid'),
        gt(checkoutSessions.amountTotal, 0),
      ),
    )
    .orderBy(asc(checkoutSessions.createdAt));
}

/** The member's latest used session of `planId` under contract `contractId` that opened a subscription. */
export async function planSessionOfContract(executor: Pick<Db, 'select'>, memberId: string, contractId: number, planId: string) {
  const [session] = await executor
    .select()
    .from(checkoutSessions)
    .where(
      and(
        eq(checkoutSessions.memberId, memberId),
        eq(checkoutSessions.contractId, contractId),
        eq(checkoutSessions.offerId, planId),
        isNotNull(checkoutSessions.subscriptionId),
        isNotNull(checkoutSessions.consumedAt),
      ),
    )
    .orderBy(desc(checkoutSessions.createdAt))
    .limit(1);
  return session;
}

/** The used sessions of `memberIds` that opened a subscription, newest first. */
export async function subscriptionSessionsOf(executor: Pick<Db, 'select'>, memberIds: string[]) {
  return executor
    .select()
    .from(checkoutSessions)
    .where(
      and(
        inArray(checkoutSessions.memberId, memberIds),
        isNotNull(checkoutSessions.subscriptionId),
        isNotNull(checkoutSessions.consumedAt),
      ),
    )
    .orderBy(desc(checkoutSessions.createdAt));
}

/** The sessions of `memberIds` that confirmed a step, and those complete and paid that confirmed none. */
export async function paidSessionsOf(db: Db, memberIds: string[]) {
  return db
    .select()
    .from(checkoutSessions)
    .where(
      and(
        inArray(checkoutSessions.memberId, memberIds),
        or(
          isNotNull(checkoutSessions.consumedAt),
          and(eq(checkoutSessions.status, 'complete'), eq(checkoutSessions.paymentStatus, 'paid'), gt(checkoutSessions.amountTotal, 0)),
        ),
      ),
    );
}
