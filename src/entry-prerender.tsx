import { createMemoryHistory, createRouter, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { preloadErrorPages } from '#src/features/errors/lazy-error-pages.tsx';
import { framedStepOf, STEP_FRAMES } from '#src/features/onboarding/step-frames.ts';
import { StepShell } from '#src/features/onboarding/step-shell.tsx';
import { type PageMeta, pageHeadTags } from '#src/features/public-site/page-meta.ts';
import { takeCollectedMeta } from '#src/features/public-site/use-page-meta.ts';
import { loadDeferred } from '#src/lib/deferred.tsx';
import { loadQueryClient } from '#src/lib/router-context.ts';
import { session } from '#src/lib/session.ts';
import { routeTree } from '#src/route-tree.gen.ts';

/**
 * Server entry of the prerender (`scripts/prerender.ts` builds it with Vite for Node): renders a
 * path of the SPA with the real route tree on a memory history, after its loaders ran, and
 * returns the HTML of `#app`, the page's head tags and the router's status code.
 */

function routerFor(path: string) {
  return createRouter({
    routeTree,
    context: { session, queries: loadQueryClient },
    history: createMemoryHistory({ initialEntries: [path] }),
    notFoundMode: 'root',
  });
}

export interface RenderedPage {
  path: string;
  status: number;
  html: string;
  meta: PageMeta | null;
  /** Ids of the matched routes (to find their CSS and JS chunks). */
  routeIds: string[];
}

export async function renderPage(path: string): Promise<RenderedPage> {
  const router = routerFor(path);
  await router.load();
  // The page's deferred parts (long text, static sections) are in its HTML, inside their Suspense
  // boundaries; the browser hydrates them later (src/lib/deferred.tsx).
  await Promise.all([loadDeferred(), preloadErrorPages()]);
  takeCollectedMeta();
  const html = renderToString(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
  const meta = takeCollectedMeta();
  const notFound = router.state.matches.some((match) => match.status === 'notFound' || match._notFound === true);
  const failed = router.state.matches.some((match) => match.status === 'error');
  return { path, status: notFound ? 404 : failed ? 500 : 200, html, meta, routeIds: router.state.matches.map((match) => match.routeId) };
}

/** Full paths of every route of the tree (`/blog/$slug`, `/mon-compte`…), without trailing slash. */
export function routePaths(): string[] {
  const router = routerFor('/');
  const paths = new Set<string>();
  for (const route of Object.values(router.routesById) as { fullPath?: string; isRoot?: boolean }[]) {
    if (route.isRoot || !route.fullPath) continue;
    paths.add(route.fullPath === '/' ? '/' : route.fullPath.replace(/\/+$/, ''));
  }
  return [...paths].filter((path) => path !== '').sort();
}

/**
 * The markup and document title of a signed-in route's shell when it has more to paint than the
 * loading line (decision 142): a framed onboarding step's heading and introduction. `null` for
 * every other route, whose shell is the generic one.
 */
export function renderShell(pattern: string): { html: string; title: string } | null {
  const step = framedStepOf(pattern);
  if (step === undefined) return null;
  return { html: renderToString(<StepShell step={step} />), title: `${STEP_FRAMES[step].title} — Union Sincère` };
}

export { pageHeadTags };
