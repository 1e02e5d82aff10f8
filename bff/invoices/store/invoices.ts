// Stores invoices: the year's counter, the paid session and member an invoice is made from, the rows and their PDF.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { invoices } from '#bff/db/invoices-schema.ts';
import { checkoutSessions, members } from '#bff/db/schema.ts';

/**
 * The year's counter row created or incremented by one upsert, which locks it until the caller's
 * transaction ends: the rank it returns (not checked here).
 */
export async function nextInvoiceRank(tx: Pick<Db, 'execute'>, year: number): Promise<number> {
  const result = (await tx.execute(
    sql`INSERT INTO invoice_counters (year, last_number) VALUES (${year}, 1)
        ON CONFLICT (year) DO UPDATE SET last_number = invoice_counters.last_number + 1
        RETURNING last_number`,
  )) as unknown as { rows: { last_number: number }[] };
  return Number(result.rows[0]?.last_number);
}

export async function checkoutSessionById(tx: Pick<Db, 'select'>, sessionId: string) {
  const [session] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId)).limit(1);
  return session;
}

/** The number of the invoice of a payment reference (a checkout session, an instalment's `in_…`), if any. */
export async function invoiceNumberOfReference(tx: Pick<Db, 'select'>, reference: string) {
  const [existing] = await tx.select({ number: invoices.number }).from(invoices).where(eq(invoices.checkoutSessionId, reference)).limit(1);
  return existing;
}

export async function invoicedMember(tx: Pick<Db, 'select'>, memberId: string) {
  const [member] = await tx
    .select({ id: members.id, email: members.email, contract: members.contract, profile: members.profile, role: members.role })
    .from(members)
    .where(eq(members.id, memberId))
    .limit(1);
  return member;
}

export async function insertInvoice(tx: Pick<Db, 'insert'>, row: typeof invoices.$inferInsert): Promise<void> {
  await tx.insert(invoices).values(row);
}

/** A member's invoices, newest first, without their PDF. */
export async function invoiceListOf(executor: Pick<Db, 'select'>, memberId: string) {
  return executor
    .select({
      number: invoices.number,
      offerId: invoices.offerId,
      lines: invoices.lines,
      totalCents: invoices.totalCents,
      paymentMethod: invoices.paymentMethod,
      paidAt: invoices.paidAt,
    })
    .from(invoices)
    .where(eq(invoices.memberId, memberId))
    .orderBy(desc(invoices.paidAt), desc(invoices.number));
}

export async function invoicePdfRow(executor: Pick<Db, 'select'>, memberId: string, number: string) {
  const [row] = await executor
    .select({ pdf: invoices.pdf })
    .from(invoices)
    .where(and(eq(invoices.memberId, memberId), eq(invoices.number, number)))
    .limit(1);
  return row;
}

/** The invoices of `memberIds`: number and payment reference. */
export async function invoiceReferencesOf(db: Pick<Db, 'select'>, memberIds: string[]) {
  return db
    .select({ number: invoices.number, reference: invoices.checkoutSessionId })
    .from(invoices)
    .where(inArray(invoices.memberId, memberIds));
}
