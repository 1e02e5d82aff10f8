// Stores the refunds: recorded pending, carried out later, and what each charge already gave back.
import { and, asc, eq, inArray, lt, ne, sql, sum } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { refunds } from '#bff/db/refunds-schema.ts';

type RefundInsert = typeof refunds.$inferInsert;

/** What refunds not failed gave back from each charge of contract `contractId`. */
export async function refundedByCharge(executor: Pick<Db, 'select'>, contractId: number) {
  return executor
    .select({ charge: refunds.checkoutSessionId, cents: sum(refunds.amountCents).mapWith(Number) })
    .from(refunds)
    .where(and(eq(refunds.contractId, contractId), ne(refunds.status, 'failed')))
    .groupBy(refunds.checkoutSessionId);
}

/** The same for many contracts, per contract and charge. */
export async function refundedByContractCharge(executor: Pick<Db, 'select'>, contractIds: number[]) {
  return executor
    .select({ contract: refunds.contractId, charge: refunds.checkoutSessionId, cents: sum(refunds.amountCents).mapWith(Number) })
    .from(refunds)
    .where(and(inArray(refunds.contractId, contractIds), ne(refunds.status, 'failed')))
    .groupBy(refunds.contractId, refunds.checkoutSessionId);
}

/** The refund of a charge taken outside its contract, if one was recorded. */
export async function outsideRefundOfCharge(executor: Pick<Db, 'select'>, chargeId: string) {
  const [known] = await executor
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.checkoutSessionId, chargeId), eq(refunds.reason, 'outside_contract')))
    .limit(1);
  return known;
}

/** Inserts a refund unless its charge and reason have one: the ids inserted. */
export async function insertRefundOnce(executor: Pick<Db, 'insert'>, row: RefundInsert) {
  return executor.insert(refunds).values(row).onConflictDoNothing().returning({ id: refunds.id });
}

/** Inserts a refund: the ids inserted. */
export async function insertRefund(tx: Transaction, row: RefundInsert) {
  return tx.insert(refunds).values(row).returning({ id: refunds.id });
}

/** The member's pending refunds, or every pending one tried fewer than 20 times: the first 100 by id. */
export async function pendingRefunds(db: Db, memberId?: string) {
  const where = memberId
    ? and(eq(refunds.status, 'pending'), eq(refunds.memberId, memberId))
    : and(eq(refunds.status, 'pending'), lt(refunds.attempts, 20));
  return db.select().from(refunds).where(where).orderBy(asc(refunds.id)).limit(100);
}

/** The provider's answer written on a refund still pending, one attempt more. */
export async function recordRefundDone(
  tx: Transaction,
  id: number,
  done: Pick<RefundInsert, 'status' | 'provider' | 'providerRefundId' | 'completedAt'>,
): Promise<void> {
  await tx
    .update(refunds)
    .set({ ...done, attempts: sql`${refunds.attempts} + 1`, lastError: null })
    .where(and(eq(refunds.id, id), eq(refunds.status, 'pending')));
}

/** One failed attempt more, with its error. */
export async function recordRefundAttemptFailed(db: Db, id: number, message: string): Promise<void> {
  await db
    .update(refunds)
    .set({ attempts: sql`${refunds.attempts} + 1`, lastError: message })
    .where(eq(refunds.id, id));
}

/** The refunds of `memberIds`, by id. */
export async function refundRowsOf(db: Db | Transaction, memberIds: string[]) {
  return db
    .select({
      id: refunds.id,
      amountCents: refunds.amountCents,
      requestedAt: refunds.requestedAt,
      dueBy: refunds.dueBy,
      status: refunds.status,
      provider: refunds.provider,
      completedAt: refunds.completedAt,
      keptCents: refunds.keptCents,
      reason: refunds.reason,
    })
    .from(refunds)
    .where(inArray(refunds.memberId, memberIds))
    .orderBy(asc(refunds.id));
}

/** Every refund of `memberIds`. */
export async function refundsOfMembers(db: Db, memberIds: string[]) {
  return db.select().from(refunds).where(inArray(refunds.memberId, memberIds));
}
