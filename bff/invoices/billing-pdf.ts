import { PDFDocument, type PDFFont, rgb, StandardFonts } from 'pdf-lib';
import { encodable } from '#bff/contract/contract-pdf.ts';
import type { AgencyIdentity } from '#machines/public-site/agency-identity.ts';
import { formatEuros } from '#machines/onboarding/plans.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';

/**
 * The one-page A4 layout shared by the invoice (invoice-pdf.ts) and the credit note
 * (credit-note-pdf.ts), decision 110: the agency's identity, the title and its dated references,
 * the customer, the lines with their total and the VAT mention, a closing stamp and the legal
 * footer. pdf-lib with standard fonts, as the contract; dated by `issuedAt` so that the same input
 * gives the same bytes.
 */
export interface BillingDocument {
  /** « Facture FA-2026-0001 »: the PDF's title, and its subject with the agency's name. */
  title: string;
  agency: AgencyIdentity;
  issuedAt: Date;
  /** « Facture n° FA-2026-0001 », in large type. */
  heading: string;
  /** The lines under the heading (the date first); the last one closes the block. */
  references: string[];
  /** « Facturé à », « Établi pour ». */
  customerCaption: string;
  customerName: string;
  customerEmail: string;
  lines: { label: string; amount: string }[];
  total: { label: string; amount: string };
  /** « Payé », « À rembourser », in green, then its lines. */
  stamp: { title: string; lines: string[] };
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const INK = rgb(0.12, 0.16, 0.2);
const GRAY = rgb(0.4, 0.44, 0.48);
const GREEN = rgb(0.09, 0.4, 0.2);

/** "25 novembre 2026", in Paris. */
export function frenchDate(at: Date): string {
  return frenchDateFormat({ timeZone: 'Europe/Paris', day: 'numeric', month: 'long', year: 'numeric' }).format(at);
}

/** Amounts with ordinary no-break spaces (WinAnsi has no narrow one). */
export function euros(cents: number): string {
  return formatEuros(cents).replace(/\u202f/g, '\u00a0');
}

export async function renderBillingPdf(billing: BillingDocument): Promise<Uint8Array> {
  const a = billing.agency;
  const doc = await PDFDocument.create();
  doc.setTitle(billing.title);
  doc.setAuthor(a.legalName);
  doc.setSubject(`${billing.title} — ${a.legalName}`);
  doc.setCreator(a.legalName);
  doc.setProducer('pdf-lib');
  doc.setLanguage('fr-FR');
  doc.setCreationDate(billing.issuedAt);
  doc.setModificationDate(billing.issuedAt);
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
  const rule = () => page.drawLine({ start: { x: MARGIN, y }, end: { x: A4[0] - MARGIN, y }, thickness: 0.7, color: GRAY });

  line(a.legalName, { size: 14, font: bold, color: GREEN });
  line(a.legalForm, { size: 9, color: GRAY });
  line(a.address, { size: 9, color: GRAY });
  line(`${a.rcs} — SIRET ${a.siret}`, { size: 9, color: GRAY });
  line(`${a.email} — ${a.phone}`, { size: 9, color: GRAY, gap: 18 });

  line(billing.heading, { size: 18, font: bold, gap: 4 });
  billing.references.forEach((reference, index) => {
    line(reference, { gap: index === billing.references.length - 1 ? 14 : 0 });
  });

  line(billing.customerCaption, { size: 9, color: GRAY });
  line(billing.customerName, { font: bold });
  line(billing.customerEmail, { gap: 18 });

  y -= 14;
  text('Désignation', MARGIN, 10, bold);
  right('Montant', 10, bold);
  y -= 6;
  rule();
  for (const item of billing.lines) {
    y -= 16;
    text(item.label, MARGIN, 10, regular);
    right(item.amount, 10, regular);
  }
  y -= 8;
  rule();
  y -= 18;
  text(billing.total.label, MARGIN, 11, bold);
  right(billing.total.amount, 11, bold);
  y -= 14;
  text(a.vat, MARGIN, 9, regular, GRAY);

  y -= 34;
  text(billing.stamp.title, MARGIN, 16, bold, GREEN);
  billing.stamp.lines.forEach((stampLine, index) => {
    y -= index === 0 ? 16 : 14;
    text(stampLine, MARGIN, 10, regular);
  });

  y = MARGIN;
  text(`${a.legalName}, ${a.legalForm} — ${a.rcs} — SIRET ${a.siret}`, MARGIN, 7.5, regular, GRAY);
  return doc.save({ useObjectStreams: false });
}
