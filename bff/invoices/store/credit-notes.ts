// Stores credit notes: the year's counter, the refund and member a credit note is made from, the rows and their PDF.
import { and, desc, eq, sql } from 'drizzle-orm';
import { creditNotes } from '#bff/db/credit-notes-schema.ts';
import type { Db } from '#bff/db/database.ts';
import { refunds } from '#bff/db/refunds-schema.ts';
import { members } from '#bff/db/schema.ts';

/** The year's counter row created or incremented (locked until the caller's transaction ends): the rank it returns, not checked. */
export async function nextCreditNoteRank(tx: Pick<Db, 'execute'>, year: number): Promise<number> {
  const result = (await tx.execute(
    sql`INSERT INTO credit_note_counters (year, last_number) VALUES (${year}, 1)
        ON CONFLICT (year) DO UPDATE SET last_number = credit_note_counters.last_number + 1
        RETURNING last_number`,
  )) as unknown as { rows: { last_number: number }[] };
  return Number(result.rows[0]?.last_number);
}

export async function refundById(tx: Pick<Db, 'select'>, refundId: number) {
  const [refund] = await tx.select().from(refunds).where(eq(refunds.id, refundId)).limit(1);
  return refund;
}

export async function creditNoteOfRefund(tx: Pick<Db, 'select'>, refundId: number) {
  const [existing] = await tx.select({ number: creditNotes.number }).from(creditNotes).where(eq(creditNotes.refundId, refundId)).limit(1);
  return existing;
}

export async function creditedMember(tx: Pick<Db, 'select'>, memberId: string) {
  const [member] = await tx
    .select({ id: members.id, email: members.email, contract: members.contract, profile: members.profile })
    .from(members)
    .where(eq(members.id, memberId))
    .limit(1);
  return member;
}

export async function insertCreditNote(tx: Pick<Db, 'insert'>, row: typeof creditNotes.$inferInsert): Promise<void> {
  await tx.insert(creditNotes).values(row);
}

/** A member's credit notes, newest first, without their PDF. */
export async function creditNoteListOf(executor: Pick<Db, 'select'>, memberId: string) {
  return executor
    .select({
      number: creditNotes.number,
      invoiceNumber: creditNotes.invoiceNumber,
      reason: creditNotes.reason,
      amountCents: creditNotes.amountCents,
      issuedAt: creditNotes.issuedAt,
    })
    .from(creditNotes)
    .where(eq(creditNotes.memberId, memberId))
    .orderBy(desc(creditNotes.issuedAt), desc(creditNotes.number));
}

export async function creditNotePdfRow(executor: Pick<Db, 'select'>, memberId: string, number: string) {
  const [row] = await executor
    .select({ pdf: creditNotes.pdf })
    .from(creditNotes)
    .where(and(eq(creditNotes.memberId, memberId), eq(creditNotes.number, number)))
    .limit(1);
  return row;
}
