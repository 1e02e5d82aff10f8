/**
 * One polling mechanism for screens that keep up by themselves (decision 123's waiting screens,
 * decision 128's unread counts): a check repeated with a back-off that doubles from `firstMs` up
 * to `maxMs`, no request while the tab is hidden, at once (and the back-off starting over) when
 * the tab comes back, when the page asks (`now()`: after the user read or sent something) or
 * when the check saw a change. Polling rather than a long-lived connection: nothing to keep open
 * through the proxy, and each answer is one cheap indexed read.
 */

export interface PollSchedule {
  firstMs: number;
  maxMs: number;
}

/** The delay after `delay` when nothing changed: doubled, at most `maxMs`. */
export function nextDelay(delay: number, schedule: PollSchedule): number {
  return Math.min(delay * 2, schedule.maxMs);
}

/** The first `count` delays of a schedule while nothing changes (for tests and documentation). */
export function delaysOf(schedule: PollSchedule, count: number): number[] {
  const delays = [schedule.firstMs];
  while (delays.length < count) delays.push(nextDelay(delays.at(-1) as number, schedule));
  return delays;
}

/** What a check saw: the watch stops, starts the back-off over, or backs off further. */
export type PollOutcome = 'stop' | 'changed' | 'unchanged';

export interface WatchEnvironment {
  /** Whether the tab is hidden now (`document.hidden`). */
  hidden: () => boolean;
  /** Listens to `visibilitychange` and `focus`; returns the unsubscribe. */
  onVisible: (listener: () => void) => () => void;
  setTimer: (run: () => void, ms: number) => unknown;
  clearTimer: (timer: unknown) => void;
}

export interface Poller {
  /** Checks at once (unless hidden) and starts the back-off over. */
  now: () => void;
  stop: () => void;
}

/** Starts polling; with `immediate` the first check runs at once, else after `firstMs`. */
export function poll(
  check: () => Promise<PollOutcome>,
  env: WatchEnvironment,
  schedule: PollSchedule,
  options: { immediate?: boolean } = {},
): Poller {
  let delay = schedule.firstMs;
  let timer: unknown = null;
  let stopped = false;
  let running = false;
  // A `now()` while a check is running: check again right after it (the answer may predate it).
  let again = false;

  const schedule_ = () => {
    if (stopped) return;
    timer = env.setTimer(() => void tick(), delay);
    delay = nextDelay(delay, schedule);
  };

  async function tick() {
    timer = null;
    // Hidden: no request; the watch resumes when the tab comes back.
    if (stopped || env.hidden()) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    let outcome: PollOutcome = 'unchanged';
    try {
      outcome = await check();
    } catch {
      // A failed check (offline) is tried again later.
    } finally {
      running = false;
    }
    if (outcome === 'stop') {
      stopped = true;
      return;
    }
    if (outcome === 'changed') delay = schedule.firstMs;
    if (again) {
      again = false;
      restart();
      return;
    }
    if (timer === null) schedule_();
  }

  function restart() {
    if (stopped || env.hidden()) return;
    if (timer !== null) env.clearTimer(timer);
    timer = null;
    delay = schedule.firstMs;
    void tick();
  }

  const unsubscribe = env.onVisible(restart);

  if (options.immediate) void tick();
  else schedule_();
  return {
    now: restart,
    stop: () => {
      stopped = true;
      if (timer !== null) env.clearTimer(timer);
      unsubscribe();
    },
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
