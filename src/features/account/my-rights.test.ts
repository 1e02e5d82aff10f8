import { describe, expect, it } from 'vitest';
import { offeredRights } from '#src/features/account/my-rights.tsx';

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
