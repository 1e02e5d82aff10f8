import { lazy, Suspense, useState } from 'react';
import { isChunkLoadError, reloadOnce } from '#src/lib/chunk-reload.ts';

type ErrorPages = typeof import('#src/features/errors/error-page.tsx');

/**
 * The root's error and 404 pages, out of the first load of the pages that render fine. A page
 * that starts on one of them (the prerendered 404, a failed loader) loads the code before the
 * first render (`preloadErrorPages`, awaited by main.tsx and the prerender), so it renders at once;
 * later errors suspend for the time of one small request.
 */
let loaded: ErrorPages | null = null;
let loading: Promise<ErrorPages> | null = null;

export function preloadErrorPages(): Promise<ErrorPages> {
  loading ??= import('#src/features/errors/error-page.tsx').then((module) => {
    loaded = module;
    return module;
  });
  return loading;
}

const LazyRouteErrorPage = lazy(() => preloadErrorPages().then((module) => ({ default: module.RouteErrorPage })));
const LazyNotFoundPage = lazy(() => preloadErrorPages().then((module) => ({ default: module.NotFoundPage })));

/** The root's `errorComponent`: a chunk that failed to load reloads the page once (spec §4/§8). */
export function RouteErrorPage(props: { error: unknown; reset?: () => void }) {
  // Decided here too: after a deploy, the error page's own chunk may be gone with the others.
  const [reloading] = useState(() => loaded === null && isChunkLoadError(props.error) && reloadOnce());
  if (reloading) return null;
  if (loaded) return <loaded.RouteErrorPage {...props} />;
  return (
    <Suspense fallback={null}>
      <LazyRouteErrorPage {...props} />
    </Suspense>
  );
}

/** The root's `notFoundComponent`. */
export function NotFoundPage() {
  if (loaded) return <loaded.NotFoundPage />;
  return (
    <Suspense fallback={null}>
      <LazyNotFoundPage />
    </Suspense>
  );
}
