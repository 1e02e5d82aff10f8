import { describe, expect, it } from 'vitest';
import { endedRefundText, offeredRights } from '#src/features/account/my-rights.tsx';

// Signed Monday 7 Dec 2026 at 11:03 Paris: renunciation until Monday 14 Dec included, withdrawal
// until Monday 21 Dec included (civil days, decision 165).
const SIGNED = '2026-12-07T11:03:00+01:00';
const at = (iso: string) => Date.parse(iso);

describe('« Mes droits » offers a right only while its period runs', () => {
  it.each([
    ['renunciation, 7th day evening', 'attente-contrat.delai-renonciation', '2026-12-14T23:59:00+01:00', true, false],
    ['renunciation, state not yet moved on at 00:00', 'attente-contrat.delai-renonciation', '2026-12-15T00:00:00+01:00', false, false],
    ['payment step, 14th day evening', 'frais-de-dossier', '2026-12-21T20:00:00+01:00', false, true],
    ['payment step left unpaid after the 14 days', 'frais-de-dossier', '2026-12-22T00:00:00+01:00', false, false],
    ['early start, waiting for the meeting after the 14 days', 'attente.entretien-matchmaking', '2026-12-23T10:00:00+01:00', false, false],
    ['early start, active within the 14 days', 'membre-actif', '2026-12-18T10:00:00+01:00', false, true],
    ['active after the 14 days', 'membre-actif', '2026-12-22T00:00:00+01:00', false, false],
    ['renounced', 'renonce', '2026-12-10T10:00:00+01:00', false, false],
  ])('%s', (_label, state, now, canRenounce, canWithdraw) => {
    expect(offeredRights(state, SIGNED, at(now))).toEqual({ canRenounce, canWithdraw });
  });

  it('offers nothing before a signature', () => {
    expect(offeredRights('attente-contrat.delai-renonciation', null, at('2026-12-10T10:00:00+01:00'))).toEqual({
      canRenounce: false,
      canWithdraw: false,
    });
  });
});

describe('« Mes droits » after the end says what the ledger refunded (issue 59 point 3)', () => {
  const ended = (refundedCents: number) => ({ on: '2026-12-17', reason: 'rétractation dans les 14 jours', refundedCents });
  const plain = (s: string) => s.replace(/[\u00a0\u202f\u2011]/g, (c) => (c === '\u2011' ? '-' : ' '));
  it('names the amount refunded', () => {
    expect(plain(endedRefundText('retracte', ended(26_400)))).toBe(
      'Remboursé sur votre moyen de paiement : 264,00 € ; le détail vous a été envoyé par e-mail.',
    );
    expect(plain(endedRefundText('resilie', ended(5_115)))).toContain('51,15 €');
  });
  it('says why nothing was refunded, per end', () => {
    expect(endedRefundText('renonce', ended(0))).toContain('Aucune somme ne vous a été ni ne vous sera demandée');
    expect(endedRefundText('retracte', ended(0))).toContain('Vous n’aviez rien payé');
    expect(endedRefundText('contrat-termine', ended(0))).toContain('mené à son terme');
    expect(endedRefundText('resilie', ended(0))).toContain('couvre la période écoulée');
  });
});
