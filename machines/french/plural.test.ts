import { describe, expect, it } from 'vitest';
import { count, plural } from './plural.ts';

describe('French plurals', () => {
  it('takes the singular below two, the plural from two', () => {
    expect(count(0, 'compte', 'comptes')).toBe('0 compte');
    expect(count(1, 'mise en relation', 'mises en relation')).toBe('1 mise en relation');
    expect(count(2, 'mensualité payée', 'mensualités payées')).toBe('2 mensualités payées');
    expect(count(14, 'compte', 'comptes')).toBe('14 comptes');
    expect(plural(1, 'passé', 'passés')).toBe('passé');
    expect(plural(3, 'passé', 'passés')).toBe('passés');
  });
});
