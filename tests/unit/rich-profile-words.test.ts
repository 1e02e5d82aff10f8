import { describe, expect, it } from 'vitest';
import { profileRows } from '#src/features/dashboard/member-view.ts';

/** Decision 208: the richer answers, in words on the staff's file and in « Mes informations » (never a code). */
describe('the richer profile in words', () => {
  const NOW = Date.parse('2026-12-07T12:00:00Z');
  it('languages, level, height, hijab, beard and school', () => {
    const rows = profileRows(
      { languages: ['francais', 'berbere'], educationLevel: 'bac-2', heightCm: 178, hijab: 'non', beard: 'oui', madhhab: 'chafiite' },
      NOW,
    );
    expect(rows).toEqual([
      { label: 'Niveau d’études', value: 'Bac + 2 (BTS, DUT…)' },
      { label: 'Langues parlées', value: 'Français, Berbère (tamazight, kabyle…)' },
      { label: 'Taille', value: '1,78\u00a0m' },
      { label: 'Port du voile', value: 'Non' },
      { label: 'Port de la barbe', value: 'Oui' },
      { label: 'École juridique (madhhab)', value: 'Chafiite' },
    ]);
  });
  it('answers saved before show no row for the new questions', () => {
    expect(profileRows({ firstName: 'Amina' }, NOW)).toEqual([{ label: 'Prénom', value: 'Amina' }]);
  });
});
