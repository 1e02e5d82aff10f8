import { PDFDocument, type PDFFont, rgb, StandardFonts } from 'pdf-lib';
import { encodable, wrap } from '#bff/contract/contract-pdf.ts';
import type { AgencyIdentity } from '#machines/public-site/agency-identity.ts';
import { formatEuros } from '#machines/onboarding/plans.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';

/**
 * The one-page A4 layout shared by the invoice (invoice-pdf.ts) and the credit note
 * (credit-note-pdf.ts), decisions 110 and 186: the agency's identity, the title and its dated
 * references, the customer's name and postal address, the lines with their totals and the VAT
 * mention, a closing stamp and the legal footer, every line wrapped within the A4 page's margins. pdf-lib with standard fonts, as the contract; dated by `issuedAt` so that the same input
 * gives the same bytes.
 */
export interface BillingDocument {
  /** « Facture 2026-000001 »: the PDF's title, and its subject with the agency's name. */
  title: string;
  agency: AgencyIdentity;
  issuedAt: Date;
  /** « Facture n° 2026-000001 », in large type. */
  heading: string;
  /** The lines under the heading (the date first); the last one closes the block. */
  references: string[];
  /** « Facturé à », « Établi pour ». */
  customerCaption: string;
  customerName: string;
  /** The customer's postal address, one line each (street, then postcode and city). */
  customerAddress: string[];
  customerEmail: string;
  lines: { label: string; amount: string }[];
  /**
   * « Total », then « Net à payer » (or « Net à rembourser »), the VAT mention under them (decision
   * 186): the configuration says how the agency stands with VAT only as the mention it prints
   * (`AGENCY_VAT`); no rate is configured, so no VAT is computed and no total is called « TTC ».
   */
  totals: { label: string; amount: string }[];
  /** « Payé », « À rembourser », in green, then its lines. */
  stamp: { title: string; lines: string[] };
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const WIDTH = A4[0] - 2 * MARGIN;
/** The amounts' column, right-aligned: a label never runs into it. */
const AMOUNT_COLUMN = 96;
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
  const text = (value: string, x: number, size: number, font: PDFFont, color = INK) => page.drawText(value, { x, y, size, font, color });
  const right = (value: string, size: number, font: PDFFont) => {
    const line = encodable(value, font);
    page.drawText(line, { x: A4[0] - MARGIN - font.widthOfTextAtSize(line, size), y, size, font, color: INK });
  };
  /** A paragraph wrapped to `width`, each line below the last: nothing runs past the margin. */
  const line = (
    value: string,
    options: { size?: number; font?: PDFFont; color?: ReturnType<typeof rgb>; gap?: number; width?: number } = {},
  ) => {
    const size = options.size ?? 10;
    const font = options.font ?? regular;
    for (const part of wrap(encodable(value, font), font, size, options.width ?? WIDTH)) {
      y -= size * 1.4;
      text(part, MARGIN, size, font, options.color);
    }
    y -= options.gap ?? 0;
  };
  const rule = () => page.drawLine({ start: { x: MARGIN, y }, end: { x: A4[0] - MARGIN, y }, thickness: 0.7, color: GRAY });
  /** A label (wrapped left of the amounts' column) and its amount on its first line. */
  const row = (label: string, amount: string, size: number, font: PDFFont) => {
    const parts = wrap(encodable(label, font), font, size, WIDTH - AMOUNT_COLUMN);
    parts.forEach((part, index) => {
      if (index > 0) y -= size * 1.3;
      text(part, MARGIN, size, font);
      if (index === 0) right(amount, size, font);
    });
  };

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
  for (const addressLine of billing.customerAddress) line(addressLine);
  line(billing.customerEmail, { gap: 18 });

  y -= 14;
  text('Désignation', MARGIN, 10, bold);
  right('Montant', 10, bold);
  y -= 6;
  rule();
  for (const item of billing.lines) {
    y -= 16;
    row(item.label, item.amount, 10, regular);
  }
  y -= 8;
  rule();
  billing.totals.forEach((total, index) => {
    y -= index === 0 ? 18 : 15;
    row(total.label, total.amount, 11, bold);
  });
  y -= 4;
  line(a.vat, { size: 9, color: GRAY });

  y -= 30;
  line(billing.stamp.title, { size: 16, font: bold, color: GREEN, gap: 2 });
  for (const stampLine of billing.stamp.lines) line(stampLine);

  // The legal footer, wrapped, its last line on the bottom margin.
  const footer = wrap(
    encodable(`${a.legalName}, ${a.legalForm} — ${a.address} — ${a.rcs} — SIRET ${a.siret}`, regular),
    regular,
    7.5,
    WIDTH,
  );
  footer.forEach((part, index) => {
    y = MARGIN + (footer.length - 1 - index) * 10;
    text(part, MARGIN, 7.5, regular, GRAY);
  });
  return doc.save({ useObjectStreams: false });
}
