import { describe, expect, it } from 'vitest';
import { REDUCED_MOTION_QUERY, SMOOTH_SCROLL, wantsSmoothScroll } from '#src/lib/smooth-scroll.ts';

describe('smooth scrolling', () => {
  it('uses the spec constants', () => {
    expect(SMOOTH_SCROLL).toEqual({ duration: 1.5, touchMultiplier: 0.85, wheelMultiplier: 1 });
  });

  it('is off under prefers-reduced-motion', () => {
    const asked: string[] = [];
    const reduced = (query: string) => {
      asked.push(query);
      return { matches: true };
    };
    expect(wantsSmoothScroll(reduced)).toBe(false);
    expect(asked).toEqual([REDUCED_MOTION_QUERY]);
    expect(wantsSmoothScroll(() => ({ matches: false }))).toBe(true);
  });
});
