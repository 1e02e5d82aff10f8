import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { BillingEntryView, MySchedule } from '#src/features/billing/billing-api.ts';
import { BillingEntries } from '#src/features/billing/billing-entries.tsx';
import { InstalmentTable, scheduleSummary } from '#src/features/billing/instalment-table.tsx';

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/[\u202f\u00a0]/g, ' ')
    .replace(/\s+/g, ' ');
const CODES = /\b(payee|a-venir|echouee|annulee|payment|instalment|refund|rembourse|plan_[a-z_]+)\b/;

const schedule: NonNullable<MySchedule> = {
  planId: 'plan_horizon_month',
  of: 6,
  paidCount: 2,
  paidCents: 19_000,
  refundedCents: 0,
  leftCents: 38_000,
  next: { number: 3, dueAt: '2027-02-04T10:00:00.000Z', amountCents: 9_500 },
  rows: [
    {
      number: 1,
      of: 6,
      dueAt: '2026-12-04T10:00:00.000Z',
      amountCents: 9_500,
      status: 'payee',
      paidAt: '2026-12-04T10:00:00.000Z',
      failedAt: null,
      refundedCents: 0,
      due: false,
    },
    {
      number: 2,
      of: 6,
      dueAt: '2027-01-04T10:00:00.000Z',
      amountCents: 9_500,
      status: 'payee',
      paidAt: '2027-01-07T10:00:00.000Z',
      failedAt: null,
      refundedCents: 0,
      due: false,
    },
    {
      number: 3,
      of: 6,
      dueAt: '2027-02-04T10:00:00.000Z',
      amountCents: 9_500,
      status: 'echouee',
      paidAt: null,
      failedAt: '2027-02-04T10:00:00.000Z',
      refundedCents: 0,
      due: true,
    },
    {
      number: 4,
      of: 6,
      dueAt: '2027-03-04T10:00:00.000Z',
      amountCents: 9_500,
      status: 'a-venir',
      paidAt: null,
      failedAt: null,
      refundedCents: 0,
      due: false,
    },
    {
      number: 5,
      of: 6,
      dueAt: '2027-04-04T10:00:00.000Z',
      amountCents: 9_500,
      status: 'a-venir',
      paidAt: null,
      failedAt: null,
      refundedCents: 0,
      due: false,
    },
    {
      number: 6,
      of: 6,
      dueAt: '2027-05-04T10:00:00.000Z',
      amountCents: 9_500,
      status: 'annulee',
      paidAt: null,
      failedAt: null,
      refundedCents: 0,
      due: false,
    },
  ],
  flagged: [],
};

describe('the instalment schedule as members and staff read it (decision 120)', () => {
  it('shows n sur N, the due date, the amount and the status in French, never a code', () => {
    const html = renderToStaticMarkup(<InstalmentTable schedule={schedule} caption="Échéancier" />);
    const t = text(html);
    expect(t).toContain('2 sur 6 4 janvier 2027 95,00 € Payée le 7 janvier 2027');
    expect(t).toContain('3 sur 6 4 février 2027 95,00 € Échouée le 4 février 2027');
    expect(t).toContain('4 sur 6 4 mars 2027 95,00 € À venir');
    expect(t).toContain('6 sur 6 4 mai 2027 95,00 € Annulée');
    expect(t).not.toMatch(CODES);
    expect(scheduleSummary(schedule).replace(/[\u202f\u00a0]/g, ' ')).toBe(
      '2 mensualités payées sur 6 (190,00 €) ; reste à payer : 380,00 €. Prochaine échéance : 95,00 € le 4 février 2027.',
    );
    // After a stop: what was refunded, nothing left, no next instalment (issue 59 point 2).
    expect(scheduleSummary({ ...schedule, refundedCents: 19_000, leftCents: 0, next: null }).replace(/[\u202f\u00a0]/g, ' ')).toBe(
      '2 mensualités payées sur 6 (190,00 €, dont 190,00 € remboursés) ; reste à payer : 0,00 €.',
    );
  });

  it('billing lines: kind, status and amounts in French; an instalment outside the contract is flagged', () => {
    const entries: BillingEntryView[] = [
      {
        key: 'instalment:1',
        at: '2027-02-04T10:00:00.000Z',
        kind: 'instalment',
        memberId: 'm',
        memberName: 'Amina Benali',
        email: 'a@example.fr',
        label: 'Horizon — mensualité 3 sur 6',
        amountCents: 9_500,
        status: 'echouee',
        invoiceNumber: null,
        outsideContract: false,
      },
      {
        key: 'refund:1',
        at: '2027-01-10T10:00:00.000Z',
        kind: 'refund',
        memberId: 'm',
        memberName: 'Amina Benali',
        email: 'a@example.fr',
        label: 'Remboursement (rétractation)',
        amountCents: -25_400,
        status: 'rembourse',
        invoiceNumber: '2026-000004',
        outsideContract: false,
      },
      {
        key: 'instalment:2',
        at: '2027-06-04T10:00:00.000Z',
        kind: 'instalment',
        memberId: 'm',
        memberName: 'Amina Benali',
        email: 'a@example.fr',
        label: 'Horizon — mensualité 7 sur 6',
        amountCents: 9_500,
        status: 'payee',
        invoiceNumber: null,
        outsideContract: true,
      },
    ];
    const t = text(renderToStaticMarkup(<BillingEntries entries={entries} withMember={false} empty="" />));
    expect(t).toContain('Mensualité Horizon — mensualité 3 sur 6 95,00 € Échouée');
    expect(t).toContain('Remboursement Remboursement (rétractation) -254,00 € Remboursé 2026-000004');
    expect(t).toContain('Reçue hors contrat : remboursée d’office');
    expect(t).not.toMatch(CODES);
    expect(
      text(renderToStaticMarkup(<BillingEntries entries={[]} withMember={false} empty="Aucune opération pour ce membre." />)),
    ).toContain('Aucune opération pour ce membre.');
  });

  it('on a phone each cell names its column: every cell of a row carries its header as label, in order', () => {
    const entry: BillingEntryView = {
      key: 'payment:1',
      at: '2027-01-10T10:00:00.000Z',
      kind: 'payment',
      memberId: 'm',
      memberName: 'Amina Benali',
      email: 'a@example.fr',
      label: 'Frais de dossier',
      amountCents: 15_000,
      status: 'payee',
      invoiceNumber: '2027-000001',
      outsideContract: false,
    };
    // (The billing page's « Membre » column holds a router link: the browser test covers it.)
    const html = renderToStaticMarkup(<BillingEntries entries={[entry]} withMember={false} empty="" />);
    const headers = [...html.matchAll(/<th scope="col">([^<]+)<\/th>/g)].map((m) => m[1]);
    const labels = [...html.matchAll(/<td data-label="([^"]+)"><div>/g)].map((m) => m[1]);
    expect(headers).toEqual(['Date', 'Type', 'Libellé', 'Montant', 'Statut', 'Facture']);
    expect(labels).toEqual(headers);
  });
});
