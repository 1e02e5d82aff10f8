import { euros, frenchDate, renderBillingPdf } from '#bff/invoices/billing-pdf.ts';
import type { InvoiceLine } from '#bff/db/invoices-schema.ts';
import type { AgencyIdentity } from '#machines/public-site/agency-identity.ts';

/**
 * One invoice as a one-page A4 PDF (the layout of billing-pdf.ts, shared with the credit note):
 * the agency's identity (decision 106), the number, the member's name and postal address, the
 * lines, the totals and the VAT mention (decision 186), the payment date and method, and "Payé".
 * The document's dates are the payment's, so the same input gives the same bytes (the bytes are
 * stored anyway, decision 110).
 */

export interface InvoiceDocument {
  number: string;
  agency: AgencyIdentity;
  customerName: string;
  /** Street, then postcode and city. */
  customerAddress: string[];
  customerEmail: string;
  lines: InvoiceLine[];
  totalCents: number;
  paymentMethod: string;
  paidAt: Date;
}

export function renderInvoicePdf(invoice: InvoiceDocument): Promise<Uint8Array> {
  return renderBillingPdf({
    title: `Facture ${invoice.number}`,
    agency: invoice.agency,
    issuedAt: invoice.paidAt,
    heading: `Facture n° ${invoice.number}`,
    references: [`Date : ${frenchDate(invoice.paidAt)}`],
    customerCaption: 'Facturé à',
    customerName: invoice.customerName,
    customerAddress: invoice.customerAddress,
    customerEmail: invoice.customerEmail,
    lines: invoice.lines.map((item) => ({ label: item.label, amount: euros(item.amountCents) })),
    totals: [
      { label: 'Total', amount: euros(invoice.totalCents) },
      { label: 'Net à payer', amount: euros(invoice.totalCents) },
    ],
    stamp: {
      title: 'Payé',
      lines: [
        `Montant payé : ${euros(invoice.totalCents)}, le ${frenchDate(invoice.paidAt)}`,
        `Moyen de paiement : ${invoice.paymentMethod}`,
      ],
    },
  });
}
