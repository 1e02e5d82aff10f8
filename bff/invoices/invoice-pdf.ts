import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { encodable } from '#bff/contract/contract-pdf.ts';
import type { InvoiceLine } from '#bff/db/invoices-schema.ts';
import type { AgencyIdentity } from '#machines/public-site/agency-identity.ts';
import { formatEuros } from '#machines/onboarding/plans.ts';

/**
 * One invoice as a one-page A4 PDF (pdf-lib, standard fonts, as the contract): the agency's
 * identity (decision 106), the number, the member's name, the lines, the totals, the payment date
 * and method, and "Payé". The document's dates are the payment's, so the same input gives the
 * same bytes (the bytes are stored anyway, decision 110).
 */

export interface InvoiceDocument {
  number: string;
  agency: AgencyIdentity;
  customerName: string;
  customerEmail: string;
  lines: InvoiceLine[];
  totalCents: number;
  paymentMethod: string;
  paidAt: Date;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const INK = rgb(0.12, 0.16, 0.2);
const GRAY = rgb(0.4, 0.44, 0.48);
const GREEN = rgb(0.09, 0.4, 0.2);

/** "25 novembre 2026", in Paris. */
export function frenchDate(at: Date): string {
  return new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', day: 'numeric', month: 'long', year: 'numeric' }).format(at);
}

/** Amounts with ordinary no-break spaces (WinAnsi has no narrow one). */
export function euros(cents: number): string {
  return formatEuros(cents).replace(/\u202f/g, '\u00a0');
}

export async function renderInvoicePdf(invoice: InvoiceDocument): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Facture ${invoice.number}`);
  doc.setAuthor(invoice.agency.legalName);
  doc.setSubject(`Facture ${invoice.number} — ${invoice.agency.legalName}`);
  doc.setCreator(invoice.agency.legalName);
  doc.setProducer('pdf-lib');
  doc.setLanguage('fr-FR');
  doc.setCreationDate(invoice.paidAt);
  doc.setModificationDate(invoice.paidAt);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage(A4);
  let y = A4[1] - MARGIN;
  const text = (page: PDFPage, value: string, x: number, size: number, font: PDFFont, color = INK) =>
    page.drawText(encodable(value, font), { x, y, size, font, color });
  const right = (value: string, size: number, font: PDFFont, color = INK) => {
    const line = encodable(value, font);
    page.drawText(line, { x: A4[0] - MARGIN - font.widthOfTextAtSize(line, size), y, size, font, color });
  };
  const line = (value: string, options: { size?: number; font?: PDFFont; color?: ReturnType<typeof rgb>; gap?: number } = {}) => {
    const size = options.size ?? 10;
    y -= size * 1.4;
    text(page, value, MARGIN, size, options.font ?? regular, options.color);
    y -= options.gap ?? 0;
  };

  const a = invoice.agency;
  line(a.legalName, { size: 14, font: bold, color: GREEN });
  line(a.legalForm, { size: 9, color: GRAY });
  line(a.address, { size: 9, color: GRAY });
  line(`${a.rcs} — SIRET ${a.siret}`, { size: 9, color: GRAY });
  line(`${a.email} — ${a.phone}`, { size: 9, color: GRAY, gap: 18 });

  line(`Facture n° ${invoice.number}`, { size: 18, font: bold, gap: 4 });
  line(`Date : ${frenchDate(invoice.paidAt)}`, { gap: 14 });

  line('Facturé à', { size: 9, color: GRAY });
  line(invoice.customerName, { font: bold });
  line(invoice.customerEmail, { gap: 18 });

  y -= 14;
  text(page, 'Désignation', MARGIN, 10, bold);
  right('Montant', 10, bold);
  y -= 6;
  page.drawLine({ start: { x: MARGIN, y }, end: { x: A4[0] - MARGIN, y }, thickness: 0.7, color: GRAY });
  for (const item of invoice.lines) {
    y -= 16;
    text(page, item.label, MARGIN, 10, regular);
    right(euros(item.amountCents), 10, regular);
  }
  y -= 8;
  page.drawLine({ start: { x: MARGIN, y }, end: { x: A4[0] - MARGIN, y }, thickness: 0.7, color: GRAY });
  y -= 18;
  text(page, 'Total TTC', MARGIN, 11, bold);
  right(euros(invoice.totalCents), 11, bold);
  y -= 14;
  text(page, a.vat, MARGIN, 9, regular, GRAY);

  y -= 34;
  text(page, 'Payé', MARGIN, 16, bold, GREEN);
  y -= 16;
  text(page, `Montant payé : ${euros(invoice.totalCents)}, le ${frenchDate(invoice.paidAt)}`, MARGIN, 10, regular);
  y -= 14;
  text(page, `Moyen de paiement : ${invoice.paymentMethod}`, MARGIN, 10, regular);

  y = MARGIN;
  text(page, `${a.legalName}, ${a.legalForm} — ${a.rcs} — SIRET ${a.siret}`, MARGIN, 7.5, regular, GRAY);
  return doc.save({ useObjectStreams: false });
}
