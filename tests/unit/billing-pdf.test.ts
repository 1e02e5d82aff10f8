import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type CreditNoteDocument, renderCreditNotePdf } from '#bff/invoices/credit-note-pdf.ts';
import { type InvoiceDocument, renderInvoicePdf } from '#bff/invoices/invoice-pdf.ts';
import { type AgencyIdentity, DEMO_AGENCY_IDENTITY } from '#machines/public-site/agency-identity.ts';
import { outOfBounds, pdfPages, pdfPageTexts } from '#tests/support/pdf-text.ts';

/**
 * The invoice and the credit note share one layout (bff/invoices/billing-pdf.ts, issue 23), with
 * the mentions of decision 186: the client's name and postal address, the agency's identity, the
 * VAT mention with totals named « Total » and « Net à payer » (never « TTC » under the franchise),
 * and nothing past the A4 page's margins, measured on the rendered PDF with the fonts' metrics.
 * The same input keeps giving the same bytes (decision 110 stores them).
 */
const agency = {
  legalName: 'Agence Test SAS',
  legalForm: 'SAS au capital de 1 000 €',
  address: '1 rue de Paris, 75001 Paris',
  rcs: 'RCS Paris 123 456 789',
  siret: '123 456 789 00011',
  email: 'contact@ex.fr',
  phone: '01 02 03 04 05',
  vat: 'TVA non applicable, art. 293 B du CGI',
} as AgencyIdentity;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const flat = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

const invoice: InvoiceDocument = {
  number: '2026-000001',
  agency,
  customerName: 'Amina Ben Éloïse',
  customerAddress: ['12 rue de la République', '69003 Lyon'],
  customerEmail: 'a@ex.fr',
  lines: [
    { label: 'Formule Sérénité', amountCents: 120000 },
    { label: 'Frais', amountCents: 5000 },
  ],
  totalCents: 125000,
  paymentMethod: 'Carte bancaire',
  paidAt: new Date('2026-11-25T10:00:00Z'),
};
const note: CreditNoteDocument = {
  number: 'AV-2026-000001',
  agency,
  customerName: 'Amina',
  customerAddress: ['12 rue de la République', '69003 Lyon'],
  customerEmail: 'a@ex.fr',
  invoiceNumber: '2026-000001',
  label: 'Remboursement — rétractation',
  amountCents: 4500,
  issuedAt: new Date('2026-11-26T10:00:00Z'),
};

describe('the invoice: its mentions, on one A4 page', () => {
  it('names the client with a postal address, the agency, the VAT mention and « Net à payer », never « TTC »', async () => {
    const [text, ...more] = (await pdfPageTexts(await renderInvoicePdf(invoice))).map(flat);
    expect(more).toEqual([]);
    for (const expected of [
      'Agence Test SAS',
      'SAS au capital de 1 000 €',
      '1 rue de Paris, 75001 Paris',
      'RCS Paris 123 456 789 — SIRET 123 456 789 00011',
      'Facture n° 2026-000001',
      'Facturé à\nAmina Ben Éloïse\n12 rue de la République\n69003 Lyon\na@ex.fr',
      'Total\n1 250,00 €\nNet à payer\n1 250,00 €\nTVA non applicable, art. 293 B du CGI',
      'Payé',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('TTC');
  });

  it('keeps every line within the page, even with the long demonstration identity, a long label and a long address', async () => {
    const long: InvoiceDocument = {
      ...invoice,
      agency: DEMO_AGENCY_IDENTITY,
      customerName: 'Khadija Benali-Ouarzazi de la Fontaine-Saint-Martin',
      customerAddress: [
        'Résidence des Jardins de la Tête d’Or, bâtiment C, escalier 4, appartement 1207, 128 boulevard des Belges',
        '69006 Lyon',
      ],
      lines: [
        {
          label: 'Formule Sérénité — 1re mensualité sur 12, accompagnement personnalisé et entretiens de suivi compris',
          amountCents: 8500,
        },
      ],
    };
    const pages = await pdfPages(await renderInvoicePdf(long));
    expect(pages).toHaveLength(1);
    expect(outOfBounds(pages)).toEqual([]);
    const text = flat(pages[0]?.items.map((item) => item.text).join(' ') ?? '');
    // Wrapped, not cut: the footer's last words and the label's are there.
    expect(text).toContain('SIRET 000 000 000 00000');
    expect(text).toContain('entretiens de suivi compris');
    expect(text).toContain('appartement 1207');
  });

  it('gives the same bytes for the same input', async () => {
    expect(sha256(await renderInvoicePdf(invoice))).toBe(sha256(await renderInvoicePdf(invoice)));
  });
});

describe('the credit note: the invoice’s layout and width of number', () => {
  it('names the invoice it corrects, the client’s address, « Total de l’avoir » and « Net à rembourser »', async () => {
    const [text] = (await pdfPageTexts(await renderCreditNotePdf(note))).map(flat);
    for (const expected of [
      'Avoir n° AV-2026-000001',
      'Se rapporte à la facture n° 2026-000001',
      'Établi pour\nAmina\n12 rue de la République\n69003 Lyon',
      'Total de l’avoir\n-45,00 €\nNet à rembourser\n45,00 €',
      'TVA non applicable, art. 293 B du CGI',
      'À rembourser',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('TTC');
    const pages = await pdfPages(await renderCreditNotePdf({ ...note, agency: DEMO_AGENCY_IDENTITY, invoiceNumber: null }));
    expect(outOfBounds(pages)).toEqual([]);
  });
});
