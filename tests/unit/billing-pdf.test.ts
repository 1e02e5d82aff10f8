import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderCreditNotePdf } from '#bff/invoices/credit-note-pdf.ts';
import { renderInvoicePdf } from '#bff/invoices/invoice-pdf.ts';
import type { AgencyIdentity } from '#machines/public-site/agency-identity.ts';

/**
 * The invoice and the credit note share one layout (bff/invoices/billing-pdf.ts, issue 23). These
 * digests were those of the two documents as each file drew them before the layout was shared;
 * since decision 145 their « Date : » and « Montant payé : » lines carry a non-breaking space. The
 * same input must keep giving the same bytes (decision 110 stores them): a change to the layout or
 * its words shows here, on purpose.
 */
const agency = {
  legalName: 'Agence Test SAS',
  legalForm: 'SAS au capital de 1 000 €',
  address: '1 rue de Paris, 75001 Paris',
  rcs: 'RCS Paris 123',
  siret: '12345678900011',
  email: 'contact@ex.fr',
  phone: '01 02 03 04 05',
  vat: 'TVA non applicable, art. 293 B du CGI',
} as AgencyIdentity;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('invoice and credit note PDFs: one layout, the same bytes as before', () => {
  it('an invoice of two lines, paid', async () => {
    const pdf = await renderInvoicePdf({
      number: 'FA-2026-0001',
      agency,
      customerName: 'Amina Ben Éloïse',
      customerEmail: 'a@ex.fr',
      lines: [
        { label: 'Formule Sérénité', amountCents: 120000 },
        { label: 'Frais', amountCents: 5000 },
      ],
      totalCents: 125000,
      paymentMethod: 'Carte bancaire',
      paidAt: new Date('2026-11-25T10:00:00Z'),
    });
    expect(sha256(pdf)).toBe('59b183fe1f662a93f506d41d2c3b7acc22ecb426ffc400e576210c0dd1868eb6');
  });

  it('a credit note, with and without the invoice it corrects', async () => {
    const note = {
      number: 'AV-2026-0001',
      agency,
      customerName: 'Amina',
      customerEmail: 'a@ex.fr',
      label: 'Remboursement — rétractation',
      amountCents: 4500,
      issuedAt: new Date('2026-11-26T10:00:00Z'),
    };
    expect(sha256(await renderCreditNotePdf({ ...note, invoiceNumber: 'FA-2026-0001' }))).toBe(
      'ba4a9a79c66dc573d9ac1dd1b1348018a514c609d16e8df73b53741117477c64',
    );
    expect(sha256(await renderCreditNotePdf({ ...note, invoiceNumber: null }))).toBe(
      '305a58332f0896763d36c3123bdb418bfac56c1b317675e4eedf8e6ca4aa9be3',
    );
  });
});
