import type { QueryClient } from '@tanstack/react-query';
import type { SessionStore } from '#src/lib/session.ts';

/** What every route's `beforeLoad`/`loader` receives as `context`. */
export interface RouterContext {
  session: SessionStore;
  /**
   * The TanStack Query client of the signed-in pages (decision 214), fetched with their code: a
   * loader calls `(await context.queries()).ensureQueryData(…)`. Lazy so that no public page's
   * first load carries the library.
   */
  queries: () => Promise<QueryClient>;
}

/** The app's `queries` for the router context. */
export const loadQueryClient = async (): Promise<QueryClient> => (await import('#src/lib/query-client.ts')).queryClient;
