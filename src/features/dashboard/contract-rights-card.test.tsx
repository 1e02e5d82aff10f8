import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { contractEndsAtMs } from '#machines/onboarding/periods.ts';
import { ContractRightsCard } from '#src/features/dashboard/contract-rights-card.tsx';

const rights = (termEndsAt: string) => ({
  signedAt: '2026-11-24T10:30:00.000Z',
  // Signed Tuesday 24 Nov 2026: the 7th day, Tuesday 1 Dec, ends at 24:00 Paris; the 14th, Tuesday 8 Dec, too.
  renunciationEndsAt: '2026-12-01T23:00:00.000Z',
  withdrawalEndsAt: '2026-12-08T23:00:00.000Z',
  termEndsAt,
  renouncedAt: null,
  withdrawnAt: null,
  refunds: [],
  termination: null,
});

describe('the rights card of the member page', () => {
  it('shows the term as the contract prints it: its last day, not midnight the day after', () => {
    // Signed 24 November 2026 for 6 months: the contract « prend fin le 23 mai 2027 ».
    const end = contractEndsAtMs('2026-11-24T10:30:00.000Z', 6);
    expect(end).not.toBeNull();
    const html = renderToStaticMarkup(
      <ContractRightsCard rights={rights(new Date(end ?? 0).toISOString())} memberId="m" onReload={async () => {}} />,
    );
    expect(html).toContain('<dt>Fin du contrat (dernier jour)</dt><dd>23 mai 2027</dd>');
    expect(html).not.toMatch(/0\sh\s00/);
    expect(html).toMatch(/<dd>24 nov\. 2026 à 11\sh\s30<\/dd>/);
  });

  it('shows the renunciation and withdrawal periods by their last day, included', () => {
    const html = renderToStaticMarkup(
      <ContractRightsCard rights={rights('2027-05-23T22:00:00.000Z')} memberId="m" onReload={async () => {}} />,
    );
    expect(html).toContain('<dt>Renonciation possible jusqu’au (inclus, 7 jours)</dt><dd>1er déc. 2026</dd>');
    expect(html).toContain('<dt>Rétractation possible jusqu’au (inclus, 14 jours)</dt><dd>8 déc. 2026</dd>');
  });
});
