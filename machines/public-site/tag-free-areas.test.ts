import { describe, expect, it } from 'vitest';
import { isTagFreeArea } from '#machines/public-site/tag-free-areas.ts';

describe('isTagFreeArea', () => {
  it('covers the member area and the back office, nothing of the public site', () => {
    for (const path of ['/mon-compte', '/mon-compte/inscription/profil', '/mon-compte/messages', '/dashboard', '/dashboard/member/abc'])
      expect(isTagFreeArea(path), path).toBe(true);
    for (const path of ['/', '/blog', '/connexion', '/contact', '/mon-compte-bidon', '/dashboards', undefined])
      expect(isTagFreeArea(path), String(path)).toBe(false);
  });
});
