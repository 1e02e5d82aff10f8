import { PDFDocument, type PDFFont, rgb, StandardFonts } from 'pdf-lib';
import { encodable } from '#bff/contract/contract-pdf.ts';
import { euros, frenchDate } from '#bff/invoices/invoice-pdf.ts';
import type { AgencyIdentity } from '#machines/public-site/agency-identity.ts';

/**
 * One credit note (avoir) as a one-page A4 PDF, laid out as the invoice (decision 110): the
 * agency's identity, the number and date, the member, the invoice it corrects, the refunded
 * amount and why (decision 119). Dated by its issue instant: the same input gives the same bytes.
 */

export interface CreditNoteDocument {
  number: string;
  agency: AgencyIdentity;
  customerName: string;
  customerEmail: string;
  invoiceNumber: string | null;
  /** « Remboursement — rétractation (article L221-18 du Code de la consommation) ». */
  label: string;
  amountCents: number;
  issuedAt: Date;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const INK = rgb(0.12, 0.16, 0.2);
const GRAY = rgb(0.4, 0.44, 0.48);
const GREEN = rgb(0.09, 0.4, 0.2);

export async function renderCreditNotePdf(note: CreditNoteDocument): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Avoir ${note.number}`);
  doc.setAuthor(note.agency.legalName);
  doc.setSubject(`Avoir ${note.number} — ${note.agency.legalName}`);
  doc.setCreator(note.agency.legalName);
  doc.setProducer('pdf-lib');
  doc.setLanguage('fr-FR');
  doc.setCreationDate(note.issuedAt);
  doc.setModificationDate(note.issuedAt);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage(A4);
  let y = A4[1] - MARGIN;
  const text = (value: string, x: number, size: number, font: PDFFont, color = INK) =>
    page.drawText(encodable(value, font), { x, y, size, font, color });
  const right = (value: string, size: number, font: PDFFont) => {
    const line = encodable(value, font);
    page.drawText(line, { x: A4[0] - MARGIN - font.widthOfTextAtSize(line, size), y, size, font, color: INK });
  };
  const line = (value: string, options: { size?: number; font?: PDFFont; color?: ReturnType<typeof rgb>; gap?: number } = {}) => {
    const size = options.size ?? 10;
    y -= size * 1.4;
    text(value, MARGIN, size, options.font ?? regular, options.color);
    y -= options.gap ?? 0;
  };

  const a = note.agency;
  line(a.legalName, { size: 14, font: bold, color: GREEN });
  line(a.legalForm, { size: 9, color: GRAY });
  line(a.address, { size: 9, color: GRAY });
  line(`${a.rcs} — SIRET ${a.siret}`, { size: 9, color: GRAY });
  line(`${a.email} — ${a.phone}`, { size: 9, color: GRAY, gap: 18 });

  line(`Avoir n° ${note.number}`, { size: 18, font: bold, gap: 4 });
  line(`Date : ${frenchDate(note.issuedAt)}`);
  line(note.invoiceNumber ? `Se rapporte à la facture n° ${note.invoiceNumber}` : 'Se rapporte au paiement remboursé', { gap: 14 });

  line('Établi pour', { size: 9, color: GRAY });
  line(note.customerName, { font: bold });
  line(note.customerEmail, { gap: 18 });

  y -= 14;
  text('Désignation', MARGIN, 10, bold);
  right('Montant', 10, bold);
  y -= 6;
  page.drawLine({ start: { x: MARGIN, y }, end: { x: A4[0] - MARGIN, y }, thickness: 0.7, color: GRAY });
  y -= 16;
  text(note.label, MARGIN, 10, regular);
  right(`-${euros(note.amountCents)}`, 10, regular);
  y -= 8;
  page.drawLine({ start: { x: MARGIN, y }, end: { x: A4[0] - MARGIN, y }, thickness: 0.7, color: GRAY });
  y -= 18;
  text('Total de l’avoir TTC', MARGIN, 11, bold);
  right(`-${euros(note.amountCents)}`, 11, bold);
  y -= 14;
  text(a.vat, MARGIN, 9, regular, GRAY);

  y -= 34;
  text('À rembourser', MARGIN, 16, bold, GREEN);
  y -= 16;
  text(`Montant remboursé : ${euros(note.amountCents)}, par le moyen de paiement utilisé.`, MARGIN, 10, regular);

  y = MARGIN;
  text(`${a.legalName}, ${a.legalForm} — ${a.rcs} — SIRET ${a.siret}`, MARGIN, 7.5, regular, GRAY);
  return doc.save({ useObjectStreams: false });
}
