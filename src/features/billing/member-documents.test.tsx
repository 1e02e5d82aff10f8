import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DocumentList, documentsOf } from '#src/features/billing/member-documents.tsx';

const MEMBER = '0b7c2a4e-1f3d-4c5b-9a8e-7d6f5e4c3b2a';

describe('a member’s invoices and credit notes for staff', () => {
  const documents = documentsOf(
    MEMBER,
    [
      {
        number: '2026-000012',
        offerId: 'file_fee',
        label: 'Frais de dossier',
        totalCents: 16_900,
        paymentMethod: 'card',
        paidAt: '2026-11-20T10:00:00.000Z',
      },
    ],
    [
      {
        number: 'AV-2026-00003',
        invoiceNumber: '2026-000012',
        label: 'Remboursement — rétractation',
        amountCents: 16_900,
        issuedAt: '2026-11-23T10:00:00.000Z',
      },
    ],
  );

  it('links each PDF through the staff routes of that member', () => {
    expect(documents.map((d) => d.href)).toEqual([
      `/api/v1/dashboard/members/${MEMBER}/invoices/2026-000012.pdf`,
      `/api/v1/dashboard/members/${MEMBER}/credit-notes/AV-2026-00003.pdf`,
    ]);
  });

  it('reads in French: kind, number, what it is (the credit note names its invoice), amount in euros', () => {
    const text = renderToStaticMarkup(<DocumentList documents={documents} />)
      .replace(/<[^>]+>/g, ' ')
      .replace(/[\u202f\u00a0]/g, ' ')
      .replace(/\s+/g, ' ');
    expect(text).toContain('Facture 2026-000012 — Frais de dossier, 169,00 €');
    expect(text).toContain('Avoir AV-2026-00003 — Remboursement — rétractation (facture 2026-000012), 169,00 €');
    expect(text).not.toMatch(/file_fee|card/);
  });

  it('says when there is nothing yet', () => {
    expect(renderToStaticMarkup(<DocumentList documents={[]} />)).toContain('Aucune facture pour l’instant.');
  });
});
