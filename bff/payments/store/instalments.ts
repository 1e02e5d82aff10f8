// Stores the instalments of the monthly plans: one row per Stripe invoice of a subscription.
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { instalments } from '#bff/db/instalments-schema.ts';

export type InstalmentRow = typeof instalments.$inferSelect;

/** The instalments paid within contract `contractId` (not those outside it). */
export async function paidInstalmentsOfContract(executor: Pick<Db, 'select'>, contractId: number) {
  return executor
    .select({
      id: instalments.providerInvoiceId,
      offerId: instalments.offerId,
      amount: instalments.amountCents,
      currency: instalments.currency,
      number: instalments.number,
    })
    .from(instalments)
    .where(and(eq(instalments.contractId, contractId), eq(instalments.status, 'paid'), eq(instalments.outsideContract, false)));
}

export async function instalmentOfInvoice(tx: Transaction, providerInvoiceId: string): Promise<InstalmentRow | undefined> {
  const [existing] = await tx.select().from(instalments).where(eq(instalments.providerInvoiceId, providerInvoiceId)).limit(1);
  return existing;
}

/** How many instalments of `subscriptionId` are recorded. */
export async function instalmentCount(tx: Transaction, subscriptionId: string) {
  const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(instalments).where(eq(instalments.subscriptionId, subscriptionId));
  return n;
}

export async function updateInstalment(tx: Transaction, id: number, values: Partial<typeof instalments.$inferInsert>): Promise<void> {
  await tx.update(instalments).set(values).where(eq(instalments.id, id));
}

/** Inserts an instalment: its id. */
export async function insertInstalment(tx: Transaction, row: typeof instalments.$inferInsert) {
  const [inserted] = await tx.insert(instalments).values(row).returning({ id: instalments.id });
  return inserted;
}

/** The instalments of `subscriptionId`, by number. */
export async function instalmentsOfSubscription(executor: Pick<Db, 'select'>, subscriptionId: string): Promise<InstalmentRow[]> {
  return executor.select().from(instalments).where(eq(instalments.subscriptionId, subscriptionId)).orderBy(asc(instalments.number));
}

/** The instalments of many subscriptions, by number. */
export async function instalmentsOfSubscriptions(executor: Pick<Db, 'select'>, subscriptionIds: string[]): Promise<InstalmentRow[]> {
  return executor.select().from(instalments).where(inArray(instalments.subscriptionId, subscriptionIds)).orderBy(asc(instalments.number));
}

export async function instalmentsOfMembers(db: Db, memberIds: string[]): Promise<InstalmentRow[]> {
  return db.select().from(instalments).where(inArray(instalments.memberId, memberIds));
}
