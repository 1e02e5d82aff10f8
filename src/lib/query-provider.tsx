import { QueryClientProvider, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { type Backoff, backoff, type PollSchedule, queryClient, restartBackoff } from '#src/lib/query-client.ts';

/** The signed-in layouts' provider of the app's query client (decision 214). */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

/**
 * A component's back-off for the `refetchInterval` of the query under `queryKey` (see `backoff`),
 * started over when the tab comes back and when the query is invalidated (after a write: the
 * answer is asked at once, the next one `firstMs` later). Pass its `refetchInterval` with
 * `pollingOptions`.
 */
export function useBackoff<T>(queryKey: QueryKey, schedule: PollSchedule, stop?: (data: T) => boolean): Backoff<T> {
  const [poller] = useState(() => backoff(schedule, stop));
  const client = useQueryClient();
  const key = JSON.stringify(queryKey);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key's content, not its identity.
  useEffect(() => restartBackoff(client, queryKey, poller), [poller, client, key]);
  return poller;
}
