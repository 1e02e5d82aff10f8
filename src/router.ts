import { createRouter } from '@tanstack/react-router';
import type { SessionStore } from '#src/lib/session.ts';
import { routeTree } from '#src/route-tree.gen.ts';

/**
 * The app router: the generated route tree, the session in the context (guards await it),
 * preloading on intent (at most 4 route preloads run at once in the spec; the router preloads one
 * link per hover/focus), scroll restoration, and the root's 404 page for every unknown path.
 */
export function createAppRouter(session: SessionStore) {
  return createRouter({
    routeTree,
    context: { session },
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
