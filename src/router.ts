import { createRouter } from '@tanstack/react-router';
import { loadQueryClient } from '#src/lib/router-context.ts';
import type { SessionStore } from '#src/lib/session.ts';
import { routeTree } from '#src/route-tree.gen.ts';

/**
 * The app router: the generated route tree, the session in the context (guards await it) and the
 * signed-in pages' query client (loaders fill its cache),
 * preloading on intent (at most 4 route preloads run at once in the spec; the router preloads one
 * link per hover/focus), scroll restoration, and the root's 404 page for every unknown path.
 */
export function createAppRouter(session: SessionStore) {
  return createRouter({
    routeTree,
    context: { session, queries: loadQueryClient },
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    notFoundMode: 'root',
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
