/**
 * Waiting screens move on by themselves (issue 21): the member's state is checked again with a
 * back-off (5 s, 10 s, 20 s, 40 s, then every 60 s), not while the tab is hidden, and at once
 * when the tab comes back (visible or focused), the back-off starting over. The check says
 * whether the member moved (then the watch stops: the page is left).
 */

export const FIRST_DELAY_MS = 5_000;
export const MAX_DELAY_MS = 60_000;

/** 5 s → 10 s → 20 s → 40 s → 60 s → 60 s … */
export function nextDelay(delay: number): number {
  return Math.min(delay * 2, MAX_DELAY_MS);
}

export interface WatchEnvironment {
  /** Whether the tab is hidden now (`document.hidden`). */
  hidden: () => boolean;
  /** Listens to `visibilitychange` and `focus`; returns the unsubscribe. */
  onVisible: (listener: () => void) => () => void;
  setTimer: (run: () => void, ms: number) => unknown;
  clearTimer: (timer: unknown) => void;
}

/** Starts watching; `check` resolves true once the member moved on. Returns the stop function. */
export function watchState(check: () => Promise<boolean>, env: WatchEnvironment): () => void {
  let delay = FIRST_DELAY_MS;
  let timer: unknown = null;
  let stopped = false;
  let running = false;

  const schedule = () => {
    if (stopped) return;
    timer = env.setTimer(() => void tick(), delay);
    delay = nextDelay(delay);
  };

  async function tick() {
    timer = null;
    // Hidden: no request; the watch resumes when the tab comes back.
    if (stopped || running || env.hidden()) return;
    running = true;
    let moved = false;
    try {
      moved = await check();
    } catch {
      // A failed check (offline) is tried again later.
    } finally {
      running = false;
    }
    if (moved) {
      stopped = true;
      return;
    }
    schedule();
  }

  const unsubscribe = env.onVisible(() => {
    if (stopped || env.hidden()) return;
    if (timer !== null) env.clearTimer(timer);
    timer = null;
    delay = FIRST_DELAY_MS;
    void tick();
  });

  schedule();
  return () => {
    stopped = true;
    if (timer !== null) env.clearTimer(timer);
    unsubscribe();
  };
}

/** The browser's document and window as a watch environment. */
export function browserEnvironment(): WatchEnvironment {
  return {
    hidden: () => document.visibilityState === 'hidden',
    onVisible: (listener) => {
      document.addEventListener('visibilitychange', listener);
      window.addEventListener('focus', listener);
      return () => {
        document.removeEventListener('visibilitychange', listener);
        window.removeEventListener('focus', listener);
      };
    },
    setTimer: (run, ms) => window.setTimeout(run, ms),
    clearTimer: (timer) => window.clearTimeout(timer as number),
  };
}
