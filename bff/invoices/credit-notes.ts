import { and, desc, eq, sql } from 'drizzle-orm';
import type { Transaction } from '#bff/db/database.ts';
import { creditNotes } from '#bff/db/credit-notes-schema.ts';
import { invoices } from '#bff/db/invoices-schema.ts';
import { refunds } from '#bff/db/refunds-schema.ts';
import { members } from '#bff/db/schema.ts';
import { customerAddressOf, customerNameOf, invoiceYear, MAX_RANK, NUMBER_DIGITS } from '#bff/invoices/invoices.ts';
import { firstNameOf } from '#bff/mail/agency-mail-triggers.ts';
import { type AgencyMailSite, creditNoteMail } from '#bff/mail/agency-mails.ts';
import { type Executor, enqueueMailOnce } from '#bff/mail/outbox.ts';
import type { AgencyIdentity } from '#machines/public-site/agency-identity.ts';

/**
 * Credit notes (avoirs, decision 119): a refund corrects an invoice, which is never edited
 * (decision 110); each refund row gets one credit note, in the transaction that records the refund
 * as owed, numbered `AV-AAAA-NNNNNN` per calendar year (Paris) from its own counter, gap-free as the
 * invoices are, with the invoices' width (decision 186; those issued before with 5 digits keep
 * their number). Its PDF is stored, mailed and downloadable next to the invoices.
 */

function creditNoteNumber(year: number, rank: number): string {
  return `AV-${year}-${String(rank).padStart(NUMBER_DIGITS, '0')}`;
}

export function creditNoteFileName(number: string): string {
  return `avoir-${number}.pdf`;
}

/** The next number of `year`, locked until the caller's transaction ends (a rollback gives it back). */
export async function allocateCreditNoteNumber(tx: Executor, year: number): Promise<{ number: string; rank: number }> {
  const result = (await tx.execute(
    sql`INSERT INTO credit_note_counters (year, last_number) VALUES (${year}, 1)
        ON CONFLICT (year) DO UPDATE SET last_number = credit_note_counters.last_number + 1
        RETURNING last_number`,
  )) as unknown as { rows: { last_number: number }[] };
  const rank = Number(result.rows[0]?.last_number);
  if (!Number.isInteger(rank) || rank < 1) throw new Error('credit_note_counters: no number returned');
  if (rank > MAX_RANK) throw new Error('credit_note_counters: more than 999 999 credit notes in a year');
  return { number: creditNoteNumber(year, rank), rank };
}

const REASON_LABELS = {
  withdrawal: 'Remboursement — rétractation (article L221‑18 du Code de la consommation)',
  termination: 'Remboursement — résiliation pour motif légitime (article R224‑2 du Code de la consommation)',
  outside_contract: 'Remboursement — prélèvement reçu après la fin du contrat',
} as const;

/**
 * Issues the credit note of refund row `refundId` (just inserted in `tx`) unless it has one: the
 * next number, the PDF, the row, and the mail with the PDF attached (once per number). Returns the
 * number, or null when the refund already had one.
 */
export async function issueCreditNote(
  tx: Transaction,
  input: { refundId: number; agency: AgencyIdentity; site: AgencyMailSite | undefined; now: Date },
): Promise<string | null> {
  const [refund] = await tx.select().from(refunds).where(eq(refunds.id, input.refundId)).limit(1);
  if (!refund) throw new Error(`refund ${input.refundId} not found`);
  const [existing] = await tx.select({ number: creditNotes.number }).from(creditNotes).where(eq(creditNotes.refundId, refund.id)).limit(1);
  if (existing) return null;
  const [member] = await tx
    .select({ id: members.id, email: members.email, contract: members.contract, profile: members.profile })
    .from(members)
    .where(eq(members.id, refund.memberId))
    .limit(1);
  if (!member) throw new Error(`member of refund ${refund.id} not found`);
  const [invoice] = await tx
    .select({ number: invoices.number })
    .from(invoices)
    .where(eq(invoices.checkoutSessionId, refund.checkoutSessionId))
    .limit(1);
  const year = invoiceYear(input.now);
  const { number, rank } = await allocateCreditNoteNumber(tx, year);
  const customerName = customerNameOf(member);
  const invoiceNumber = invoice?.number ?? null;
  // pdf-lib is loaded at the first document, not at start (decision 080).
  const { renderCreditNotePdf } = await import('#bff/invoices/credit-note-pdf.ts');
  const pdf = await renderCreditNotePdf({
    number,
    agency: input.agency,
    customerName,
    customerAddress: customerAddressOf(member),
    customerEmail: member.email,
    invoiceNumber,
    label: REASON_LABELS[refund.reason],
    amountCents: refund.amountCents,
    issuedAt: input.now,
  });
  await tx.insert(creditNotes).values({
    number,
    year,
    rank,
    memberId: member.id,
    refundId: refund.id,
    invoiceNumber,
    reason: refund.reason,
    customerName,
    amountCents: refund.amountCents,
    currency: refund.currency,
    issuedAt: input.now,
    pdf,
  });
  if (!input.site) return number; // an update applied without mail settings (unit tests) mails nothing
  const mail = creditNoteMail(
    input.site,
    { to: member.email, firstName: firstNameOf(member.profile) },
    { number, amountCents: refund.amountCents, invoiceNumber, pdf, fileName: creditNoteFileName(number) },
  );
  await enqueueMailOnce(tx, mail, `${mail.kind}:${member.id}:${number}`);
  return number;
}

/** A member's credit notes, newest first, without their PDF. */
export async function creditNotesOf(executor: Executor, memberId: string) {
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

/** One credit note's PDF, only if it is this member's. */
export async function creditNotePdfOf(executor: Executor, memberId: string, number: string): Promise<Uint8Array | null> {
  const [row] = await executor
    .select({ pdf: creditNotes.pdf })
    .from(creditNotes)
    .where(and(eq(creditNotes.memberId, memberId), eq(creditNotes.number, number)))
    .limit(1);
  return row?.pdf ?? null;
}
