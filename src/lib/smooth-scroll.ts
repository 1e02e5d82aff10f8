/** Smooth scrolling of the spec (§9): 1.5 s, touch ×0.85, wheel ×1. Off when motion is reduced. */
export const SMOOTH_SCROLL = { duration: 1.5, touchMultiplier: 0.85, wheelMultiplier: 1 } as const;

export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/** Whether to smooth scrolling at all: never for visitors who asked for less motion. */
export function wantsSmoothScroll(matchMedia: (query: string) => { matches: boolean }): boolean {
  return !matchMedia(REDUCED_MOTION_QUERY).matches;
}

/** The first sign that the visitor is about to scroll or interact. */
const FIRST_INPUT_EVENTS = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;

/**
 * Loads Lenis at the visitor's first input (wheel, touch, pointer or key: it is not part of the
 * first load, and its start-up does not compete with the page's) and starts it, unless the visitor
 * prefers reduced motion; stops it if that preference is turned on later.
 */
export function startSmoothScroll(): void {
  if (typeof window === 'undefined' || !wantsSmoothScroll((q) => window.matchMedia(q))) return;
  const start = () => {
    for (const type of FIRST_INPUT_EVENTS) window.removeEventListener(type, start);
    void import('lenis').then(({ default: Lenis }) => {
      const lenis = new Lenis({ ...SMOOTH_SCROLL, autoRaf: true, anchors: true });
      window.matchMedia(REDUCED_MOTION_QUERY).addEventListener('change', (event) => {
        if (event.matches) lenis.destroy();
      });
    });
  };
  for (const type of FIRST_INPUT_EVENTS) window.addEventListener(type, start, { passive: true });
}
