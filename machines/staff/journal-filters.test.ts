import { describe, expect, it } from 'vitest';
import { journalFiltersText } from '#machines/staff/journal-filters.ts';

describe('journalFiltersText', () => {
  it('names each filter in French, never by its parameter', () => {
    expect(journalFiltersText('perPage=20&page=1')).toBe('par page\u00a0: 20 · page\u00a0: 1');
    expect(journalFiltersText('q=(8 caractères)')).toBe('recherche\u00a0: (8 caractères)');
    expect(journalFiltersText('status=echouee&from=2026-01-01')).toBe('statut\u00a0: echouee · du\u00a0: 2026-01-01');
    expect(journalFiltersText(null)).toBe('—');
  });
});
