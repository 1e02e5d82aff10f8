import { describe, expect, it } from 'vitest';
import { journalFiltersText } from '#machines/staff/journal-filters.ts';

describe('journalFiltersText', () => {
  it('names each filter in French, never by its parameter', () => {
    expect(journalFiltersText('perPage=20&page=1')).toBe('par page\u00a0: 20 · page\u00a0: 1');
    expect(journalFiltersText('q=(8 caractères)')).toBe('recherche\u00a0: (8 caractères)');
    expect(journalFiltersText('status=echouee&from=2026-01-01')).toBe('statut\u00a0: echouee · du\u00a0: 2026-01-01');
    expect(journalFiltersText(null)).toBe('—');
    // The member list's codes in words (decision 210).
    expect(journalFiltersText('gender=femme&region=ile-de-france&counsellor=aucun&sort=age&dir=asc')).toBe(
      'sexe\u00a0: Femme · région\u00a0: Île-de-France · conseiller·ère\u00a0: sans conseiller·ère · tri\u00a0: âge · ordre\u00a0: croissant',
    );
    expect(journalFiltersText('step=membre-actif&practice=reguliere&ageMin=30')).toBe(
      'étape\u00a0: Membre actif · pratique\u00a0: Régulière, avec quelques manques · âge minimum\u00a0: 30',
    );
  });
});
