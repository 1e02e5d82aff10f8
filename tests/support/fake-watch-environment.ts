import type { WatchEnvironment } from '#src/lib/poll.ts';

/** A page's visibility and timers for the pollers' tests (src/lib/poll.ts and its users): hide, show, count listeners. */
export function fakeWatchEnvironment() {
  let hidden = false;
  const listeners = new Set<() => void>();
  const env: WatchEnvironment = {
    hidden: () => hidden,
    onVisible: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setTimer: (run, ms) => setTimeout(run, ms),
    clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
  };
  return {
    env,
    hide: () => {
      hidden = true;
      for (const l of listeners) l();
    },
    show: () => {
      hidden = false;
      for (const l of listeners) l();
    },
    listenerCount: () => listeners.size,
  };
}
