// Stores the contracts (one per signature, decision 175): created on first use, their stop, their subscription's cancellation.
import { and, eq, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { type ContractStopReason, contracts } from '#bff/db/contracts-schema.ts';
import type { Db } from '#bff/db/database.ts';
import { checkoutSessions } from '#bff/db/schema.ts';

/** Inserts the contract of a signature, or completes the one recorded (plan and term kept when known): its id. */
export async function upsertContract(executor: Pick<Db, 'insert'>, row: typeof contracts.$inferInsert) {
  const [inserted] = await executor
    .insert(contracts)
    .values(row)
    .onConflictDoUpdate({
      target: [contracts.memberId, contracts.signedAt],
      set: { planId: sql`coalesce(excluded.plan_id, ${contracts.planId})`, endsAt: sql`coalesce(excluded.ends_at, ${contracts.endsAt})` },
    })
    .returning({ id: contracts.id });
  return inserted;
}

/** Writes the stop of contract `id` unless it has one. */
export async function stopContract(executor: Pick<Db, 'update'>, id: number, at: Date, reason: ContractStopReason): Promise<void> {
  await executor
    .update(contracts)
    .set({ stoppedAt: at, stopReason: reason })
    .where(and(eq(contracts.id, id), isNull(contracts.stoppedAt)));
}

/** The contract of `memberId` signed at `signedAt`. */
export async function contractOfSignature(executor: Pick<Db, 'select'>, memberId: string, signedAt: Date) {
  const [row] = await executor
    .select()
    .from(contracts)
    .where(and(eq(contracts.memberId, memberId), eq(contracts.signedAt, signedAt)))
    .limit(1);
  return row;
}

export async function contractsOfMembers(executor: Pick<Db, 'select'>, memberIds: string[]) {
  return executor.select().from(contracts).where(inArray(contracts.memberId, memberIds));
}

/** The term reached by `now` written as the stop of every contract not stopped (of one member, or of all). */
export async function stopContractsAtTerm(db: Db, now: Date, memberId?: string): Promise<void> {
  const mine = memberId ? eq(contracts.memberId, memberId) : undefined;
  await db
    .update(contracts)
    .set({ stoppedAt: sql`${contracts.endsAt}`, stopReason: 'term' })
    .where(and(isNull(contracts.stoppedAt), lte(contracts.endsAt, now), mine));
}

/** The subscriptions of the contracts stopped or at their term by `now` and not cancelled yet (of one member, or of all). */
export async function subscriptionsToCancel(db: Db, now: Date, memberId?: string) {
  const mine = memberId ? eq(contracts.memberId, memberId) : undefined;
  return db
    .selectDistinct({ contractId: contracts.id, subscriptionId: checkoutSessions.subscriptionId })
    .from(contracts)
    .innerJoin(checkoutSessions, and(eq(checkoutSessions.contractId, contracts.id), isNotNull(checkoutSessions.subscriptionId)))
    .where(and(isNull(contracts.subscriptionCancelledAt), or(lte(contracts.stoppedAt, now), lte(contracts.endsAt, now)), mine));
}

export async function markSubscriptionsCancelled(db: Db, contractIds: number[], now: Date): Promise<void> {
  await db
    .update(contracts)
    .set({ subscriptionCancelledAt: now })
    .where(and(inArray(contracts.id, contractIds), isNull(contracts.subscriptionCancelledAt)));
}
