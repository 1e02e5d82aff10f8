import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { InvoiceList, type InvoiceSummary, invoiceHref, PaymentReceivedNotice } from '#src/features/account/invoices.tsx';

const coupon: InvoiceSummary = {
  number: '2026-000007',
  offerId: 'file_fee',
  label: 'Frais de dossier',
  totalCents: 0,
  paymentMethod: 'aucun débit (remise de 100 %)',
  paidAt: '2026-12-04T10:30:00.000Z',
};

const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/[\u202f\u00a0]/g, ' ');

describe('invoices in Mon espace and on the payment step', () => {
  it('"Paiement reçu" says the amount actually paid (0,00 € with the coupon) and links the invoice PDF', () => {
    const html = renderToStaticMarkup(<PaymentReceivedNotice invoice={coupon} />);
    expect(html).toContain('role="status"');
    expect(text(html)).toContain('Paiement reçu');
    expect(text(html)).toContain('Frais de dossier : 0,00 € payé le 4 décembre 2026.');
    expect(html).toContain('href="/api/v1/user/invoices/2026-000007.pdf"');
    expect(text(html)).toContain('Facture 2026-000007 (PDF)');
  });

  it('"Mes factures" lists each invoice with its amount and link, or says there is none yet', () => {
    const paid: InvoiceSummary = {
      ...coupon,
      number: '2026-000008',
      offerId: 'plan_serenity_month',
      label: 'Formule Sérénité',
      totalCents: 9_500,
    };
    const html = renderToStaticMarkup(<InvoiceList invoices={[paid, coupon]} />);
    expect(text(html)).toContain('Mes factures');
    expect(text(html)).toContain('Formule Sérénité — 95,00 €, payé le 4 décembre 2026 : Facture 2026-000008 (PDF)');
    expect(html).toContain(`href="${invoiceHref('2026-000007')}"`);
    expect(text(renderToStaticMarkup(<InvoiceList invoices={[]} />))).toContain('Aucune facture pour le moment');
    // After a contract's end, no payment is promised (issue 59 point 3).
    const ended = text(renderToStaticMarkup(<InvoiceList invoices={[]} ended />));
    expect(ended).toContain('Aucune facture n’a été émise.');
    expect(ended).not.toContain('chaque paiement');
  });
});
