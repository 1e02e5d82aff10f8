import { describe, expect, it } from 'vitest';
import { formatPhone } from '#machines/onboarding/phone-format.ts';

const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('formatPhone', () => {
  it('writes a French number as a person in France writes it', () => {
    expect(formatPhone('+33612345678')).toBe('06 12 34 56 78');
    expect(formatPhone('+33145678901')).toBe('01 45 67 89 01');
    // La Réunion has its own country code: written in the international form, like any other.
    expect(formatPhone('+262692123456')).toBe('+262 692 12 34 56');
  });

  it('writes a foreign number in its international form', () => {
    expect(nbsp(formatPhone('+32470123456'))).toBe('+32 470 12 34 56');
    expect(nbsp(formatPhone('+447911123456'))).toBe('+44 7911 123456');
    expect(nbsp(formatPhone('+212612345678'))).toBe('+212 6 12 34 56 78');
  });

  it('shows what it cannot read as it is stored, never throws', () => {
    expect(formatPhone('')).toBe('');
    expect(formatPhone('abc')).toBe('abc');
    expect(formatPhone('12')).toBe('12');
  });
});
