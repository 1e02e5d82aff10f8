import { type PollSchedule, pollingOptions } from '#src/lib/query-client.ts';

/**
 * Waiting screens move on by themselves (issue 21): the member's state is checked again with a
 * back-off (5 s, 10 s, 20 s, 40 s, then every 60 s), not while the tab is hidden, and at once
 * when the tab comes back (visible), the back-off starting over. The check says whether the member
 * moved (then the watch stops: the page is left). The mechanism is a TanStack Query poll with
 * the shared back-off (src/lib/query-client.ts, decision 214), as for the unread counts.
 */

export const FIRST_DELAY_MS = 5_000;
export const MAX_DELAY_MS = 60_000;
export const STATE_SCHEDULE: PollSchedule = { firstMs: FIRST_DELAY_MS, maxMs: MAX_DELAY_MS };

/** The watch stops once the check saw the member move. */
export const moved = (data: boolean) => data;

/**
 * The query of a waiting screen at `path`: `check` resolves true once the member moved on. Its
 * first answer is « not moved » (the page was just loaded), so the first check runs after 5 s;
 * never cached once the screen is left.
 */
export function stateWatchQuery(path: string, check: () => Promise<boolean>) {
  return {
    queryKey: ['state-watch', path] as const,
    queryFn: check,
    initialData: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    ...pollingOptions,
  };
}
