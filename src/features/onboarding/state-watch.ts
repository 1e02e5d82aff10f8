import { browserEnvironment, nextDelay as nextOf, type PollSchedule, poll, type WatchEnvironment } from '#src/lib/poll.ts';

/**
 * Waiting screens move on by themselves (issue 21): the member's state is checked again with a
 * back-off (5 s, 10 s, 20 s, 40 s, then every 60 s), not while the tab is hidden, and at once
 * when the tab comes back (visible or focused), the back-off starting over. The check says
 * whether the member moved (then the watch stops: the page is left). The mechanism is the
 * shared poller (src/lib/poll.ts), also used by the unread counts (decision 128).
 */

export const FIRST_DELAY_MS = 5_000;
export const MAX_DELAY_MS = 60_000;
const SCHEDULE: PollSchedule = { firstMs: FIRST_DELAY_MS, maxMs: MAX_DELAY_MS };

export type { WatchEnvironment };
export { browserEnvironment };

/** 5 s → 10 s → 20 s → 40 s → 60 s → 60 s … */
export function nextDelay(delay: number): number {
  return nextOf(delay, SCHEDULE);
}

/** Starts watching; `check` resolves true once the member moved on. Returns the stop function. */
export function watchState(check: () => Promise<boolean>, env: WatchEnvironment): () => void {
  return poll(async () => ((await check()) ? 'stop' : 'unchanged'), env, SCHEDULE).stop;
}
