import { focusManager, hashKey, type Query, QueryClient, type QueryKey } from '@tanstack/react-query';
import type { ApiFailure, ApiResult } from '#src/lib/api-result.ts';

/**
 * The SPA's server data (decision 214): one TanStack Query client for the member area and the
 * dashboard. It caches each list and file under its key, asks once for what several components
 * show, drops an answer that a newer one superseded, and polls the waiting screens and the unread
 * counts. It is loaded with the signed-in pages only (the router context hands it out lazily:
 * `context.queries()`), so that no public page carries it.
 */

/** A failed API answer as a query's or a mutation's error: its message is the French one shown. */
export class ApiError extends Error {
  readonly failure: ApiFailure;
  constructor(failure: ApiFailure) {
    super(failure.message);
    this.name = 'ApiError';
    this.failure = failure;
  }
}

/** The data of an API answer, or an `ApiError` thrown: what a query or mutation function returns. */
export async function unwrap<T>(request: Promise<ApiResult<T>>): Promise<T> {
  const result = await request;
  if (!result.ok) throw new ApiError(result.error);
  return result.data;
}

const UNEXPECTED = 'Une erreur inattendue est survenue. Veuillez réessayer plus tard.';

/** The French message of a query's or a mutation's error; null when there is none. */
export function errorMessage(error: unknown): string | null {
  if (error === null || error === undefined) return null;
  return error instanceof ApiError ? error.message : UNEXPECTED;
}

/**
 * Whether a failed read is asked again: never after a 4xx (the server said no, asking again
 * changes nothing), once after a network failure or a 5xx.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.failure.status >= 400 && error.failure.status < 500) return false;
  return failureCount < 1;
}

/**
 * Defaults: an answer is fresh for 2 s — long enough for a route loader's answer to serve the page
 * it opens, short enough that a page opened again shows what others changed meanwhile (it shows
 * the cached answer at once and asks again; a staff member's file changes with the members'
 * answers) — one retry as above, a write never retried by itself.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 2_000, retry: shouldRetry },
      mutations: { retry: false },
    },
  });
}

/**
 * The tab comes back on `visibilitychange` or on the window's `focus` (TanStack Query listens to
 * the first only; the hand-made poller it replaces listened to both, and a browser walk pins it).
 */
focusManager.setEventListener((handleFocus) => {
  if (typeof window === 'undefined' || !window.addEventListener) return undefined;
  const listener = () => handleFocus();
  window.addEventListener('visibilitychange', listener, false);
  window.addEventListener('focus', listener, false);
  return () => {
    window.removeEventListener('visibilitychange', listener);
    window.removeEventListener('focus', listener);
  };
});

/** The app's client, shared by the signed-in layouts' provider and the routes' loaders. */
export const queryClient = createQueryClient();

/**
 * One back-off schedule for the screens that keep up by themselves (decision 123's waiting
 * screens, decision 128's unread counts): a check repeated after `firstMs`, doubling up to `maxMs`
 * while the answer stays the same.
 */
export interface PollSchedule {
  firstMs: number;
  maxMs: number;
}

/** The first `count` delays of a schedule while nothing changes (for tests and documentation). */
export function delaysOf(schedule: PollSchedule, count: number): number[] {
  const delays = [schedule.firstMs];
  while (delays.length < count) delays.push(Math.min((delays.at(-1) as number) * 2, schedule.maxMs));
  return delays;
}

export interface Backoff<T> {
  /** The query's `refetchInterval`: the delay before the next check, or false once `stop` says so. */
  refetchInterval: (query: Query<T, Error, T, readonly unknown[]>) => number | false;
  /** The next answer starts the back-off over (the tab came back, the page asked at once). */
  restart: () => void;
}

/**
 * A `refetchInterval` with a back-off, for one observer: after each answer (success or failure)
 * the delay doubles, up to `maxMs`; an answer that differs from the previous one (structural
 * sharing keeps an equal answer the same object) or a `restart()` brings it back to `firstMs`.
 * TanStack Query asks nothing while the tab is hidden (`refetchIntervalInBackground` false) and
 * asks again when it comes back (`refetchOnWindowFocus`); `useBackoff` restarts the back-off then.
 */
export function backoff<T>(schedule: PollSchedule, stop?: (data: T) => boolean): Backoff<T> {
  let delay = schedule.firstMs;
  let seen: number | null = null;
  let last: T | undefined;
  let restarting = false;
  return {
    refetchInterval(query) {
      const { data, dataUpdateCount, errorUpdateCount } = query.state;
      const answers = dataUpdateCount + errorUpdateCount;
      if (seen === null) {
        seen = answers;
        last = data;
      } else if (answers !== seen) {
        const changed = data !== last;
        delay = changed || restarting ? schedule.firstMs : Math.min(delay * 2, schedule.maxMs);
        seen = answers;
        last = data;
        restarting = false;
      }
      if (stop && data !== undefined && stop(data)) return false;
      return delay;
    },
    restart() {
      restarting = true;
    },
  };
}

/**
 * Starts `poller`'s back-off over when the tab becomes visible again (TanStack Query's focus
 * manager, which also asks the query again) and when the query under `queryKey` is invalidated
 * (after a write: asked at once, the next check `firstMs` later). Returns the unsubscribe.
 */
export function restartBackoff(client: QueryClient, queryKey: QueryKey, poller: Pick<Backoff<unknown>, 'restart'>): () => void {
  const hash = hashKey(queryKey);
  const offTab = focusManager.subscribe((focused) => {
    if (focused) poller.restart();
  });
  const offInvalidate = client.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'invalidate' && event.query.queryHash === hash) poller.restart();
  });
  return () => {
    offTab();
    offInvalidate();
  };
}

/**
 * What a polled query adds to its options: never retried by itself (the next check is the retry),
 * nothing asked while the tab is hidden, asked at once when it comes back.
 */
export const pollingOptions = { retry: false, refetchIntervalInBackground: false, refetchOnWindowFocus: 'always' } as const;
