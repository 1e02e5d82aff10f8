import { describe, expect, it } from 'vitest';
import { malformedKeys } from '#src/lib/checked-search.tsx';

describe('a signed-in route’s search checked in its own chunk (decision 220)', () => {
  it('names the known keys whose value the check dropped or changed, never the good or absent ones', () => {
    expect(malformedKeys({ onglet: 'notes' }, { onglet: 'notes' })).toEqual([]);
    expect(malformedKeys({}, { onglet: undefined })).toEqual([]);
    expect(malformedKeys({ onglet: 'pirate' }, { onglet: undefined })).toEqual(['onglet']);
    expect(malformedKeys({ vue: 'jour', jour: '7 décembre' }, { vue: 'jour', jour: undefined })).toEqual(['jour']);
    expect(malformedKeys({ redirect: ' /blog ' }, { redirect: '/blog' })).toEqual(['redirect']);
    // Keys the check does not know (a campaign's tags…) are left alone.
    expect(malformedKeys({ utm_source: 'x', memberId: 42 }, { memberId: undefined })).toEqual(['memberId']);
  });
});
