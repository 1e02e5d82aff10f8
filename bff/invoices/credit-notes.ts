import type { Transaction } from '#bff/db/database.ts';
import { customerAddressOf, customerNameOf, invoiceYear, MAX_RANK, NUMBER_DIGITS } from '#bff/invoices/invoices.ts';
import {
  creditedMember,
  creditNoteListOf,
  creditNoteOfRefund,
  creditNotePdfRow,
  insertCreditNote,
  nextCreditNoteRank,
  refundById,
} from '#bff/invoices/store/credit-notes.ts';
import { invoiceNumberOfReference } from '#bff/invoices/store/invoices.ts';
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
  const rank = await nextCreditNoteRank(tx, year);
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
  const refund = await refundById(tx, input.refundId);
  if (!refund) throw new Error(`refund ${input.refundId} not found`);
  const existing = await creditNoteOfRefund(tx, refund.id);
  if (existing) return null;
  const member = await creditedMember(tx, refund.memberId);
  if (!member) throw new Error(`member of refund ${refund.id} not found`);
  const invoice = await invoiceNumberOfReference(tx, refund.checkoutSessionId);
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
  await insertCreditNote(tx, {
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
  return creditNoteListOf(executor, memberId);
}

/** One credit note's PDF, only if it is this member's. */
export async function creditNotePdfOf(executor: Executor, memberId: string, number: string): Promise<Uint8Array | null> {
  const row = await creditNotePdfRow(executor, memberId, number);
  return row?.pdf ?? null;
}
