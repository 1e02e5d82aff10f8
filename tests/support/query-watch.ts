import { environmentManager, focusManager, QueryClient, QueryObserver, type QueryObserverOptions } from '@tanstack/react-query';
import { type Backoff, backoff, type PollSchedule, restartBackoff, shouldRetry } from '#src/lib/query-client.ts';

/**
 * A polled query as a component runs it (`useQuery` + `useBackoff`), without React: a fresh
 * client (or the one given), the observer subscribed, the back-off restarted when the tab comes back or the query is
 * invalidated. `hide()`/`show()` move TanStack Query's focus manager. For the polls' tests.
 */
export function watchQuery<T>(
  options: Omit<QueryObserverOptions<T, Error, T, T, readonly unknown[]>, 'refetchInterval'>,
  schedule: PollSchedule,
  stop?: (data: T) => boolean,
  client: QueryClient = new QueryClient({ defaultOptions: { queries: { retry: shouldRetry } } }),
) {
  // Node is a server to TanStack Query, which then schedules no polling: run as the browser does.
  environmentManager.setIsServer(() => false);
  focusManager.setFocused(true);
  client.mount();
  const poller: Backoff<T> = backoff(schedule, stop);
  const observer = new QueryObserver<T, Error, T, T, readonly unknown[]>(client, { ...options, refetchInterval: poller.refetchInterval });
  const offObserver = observer.subscribe(() => {});
  const offBackoff = restartBackoff(client, options.queryKey, poller);
  return {
    client,
    observer,
    hide: () => focusManager.setFocused(false),
    show: () => focusManager.setFocused(true),
    stop: () => {
      offBackoff();
      offObserver();
      client.unmount();
      client.clear();
      focusManager.setFocused(undefined);
    },
  };
}
