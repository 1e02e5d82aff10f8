import { euros, frenchDate, renderBillingPdf } from '#bff/invoices/billing-pdf.ts';
import type { AgencyIdentity } from '#machines/public-site/agency-identity.ts';

/**
 * One credit note (avoir) as a one-page A4 PDF, laid out as the invoice (billing-pdf.ts, decision
 * 110): the agency's identity, the number and date, the member, the invoice it corrects, the
 * refunded amount and why (decision 119). Dated by its issue instant: the same input gives the same
 * bytes.
 */

export interface CreditNoteDocument {
  number: string;
  agency: AgencyIdentity;
  customerName: string;
  /** Street, then postcode and city. */
  customerAddress: string[];
  customerEmail: string;
  invoiceNumber: string | null;
  /** « Remboursement — rétractation (article L221-18 du Code de la consommation) ». */
  label: string;
  amountCents: number;
  issuedAt: Date;
}

export function renderCreditNotePdf(note: CreditNoteDocument): Promise<Uint8Array> {
  return renderBillingPdf({
    title: `Avoir ${note.number}`,
    agency: note.agency,
    issuedAt: note.issuedAt,
    heading: `Avoir n° ${note.number}`,
    references: [
      `Date : ${frenchDate(note.issuedAt)}`,
      note.invoiceNumber ? `Se rapporte à la facture n° ${note.invoiceNumber}` : 'Se rapporte au paiement remboursé',
    ],
    customerCaption: 'Établi pour',
    customerName: note.customerName,
    customerAddress: note.customerAddress,
    customerEmail: note.customerEmail,
    lines: [{ label: note.label, amount: `-${euros(note.amountCents)}` }],
    totals: [
      { label: 'Total de l’avoir', amount: `-${euros(note.amountCents)}` },
      { label: 'Net à rembourser', amount: euros(note.amountCents) },
    ],
    stamp: { title: 'À rembourser', lines: [`Montant remboursé : ${euros(note.amountCents)}, par le moyen de paiement utilisé.`] },
  });
}
