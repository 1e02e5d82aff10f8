import { describe, expect, it } from 'vitest';
import { redirectTarget, safeRedirect } from '#src/lib/safe-redirect.ts';

describe('safeRedirect', () => {
  it.each([
    ['/mon-compte', '/mon-compte'],
    ['/mon-compte/inscription/formules?x=1#top', '/mon-compte/inscription/formules?x=1#top'],
    ['/', '/'],
    ['/connexion?redirect=%2Fmon-compte', '/connexion?redirect=%2Fmon-compte'],
  ])('keeps the same-site path %s', (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });

  it.each([
    '//evil.example',
    '//evil.example/mon-compte',
    '/\\evil.example',
    '\\\\evil.example',
    'https://evil.example/mon-compte',
    'http:/evil.example',
    'javascript:alert(1)',
    'mon-compte',
    '',
    ' /mon-compte',
    '/\t/evil.example',
    '/mon compte',
    '/\n/evil.example',
    `/${'a'.repeat(3000)}`,
  ])('refuses %j', (input) => {
    expect(safeRedirect(input)).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(safeRedirect(undefined)).toBeNull();
    expect(safeRedirect(null)).toBeNull();
    expect(safeRedirect(['/mon-compte'])).toBeNull();
  });

  it('normalises dot segments without leaving the site', () => {
    expect(safeRedirect('/a/../mon-compte')).toBe('/mon-compte');
    expect(safeRedirect('/../../mon-compte')).toBe('/mon-compte');
  });

  it('falls back when refused', () => {
    expect(redirectTarget('//evil.example', '/mon-compte')).toBe('/mon-compte');
    expect(redirectTarget('/mon-compte/mon-profil', '/mon-compte')).toBe('/mon-compte/mon-profil');
  });
});
