import '#src/styles/global.css.ts';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { installConsentOpener } from '#src/features/consent/consent-opener.ts';
import { preloadErrorPages } from '#src/features/errors/lazy-error-pages.tsx';
import { installChunkReload } from '#src/lib/chunk-reload.ts';
import { session } from '#src/lib/session.ts';
import { createAppRouter } from '#src/router.ts';
import { loadDeferred, startDeferredClock } from '#src/lib/deferred.tsx';
import { whenIdle } from '#src/lib/idle.ts';
import { enableFullStylesheets } from '#src/lib/full-stylesheets.ts';

// A prerendered page carries only the CSS it uses; the rest applies from now on (decision 092).
const fullStylesheets = enableFullStylesheets();
installChunkReload();
installConsentOpener();
// Deferred parts of a prerendered page (its text, static sections) load once the page is idle.
startDeferredClock();

// Smooth scrolling and the version check: not needed to paint or hydrate the page.
whenIdle(() => void import('#src/lib/background-tasks.ts').then(({ startBackgroundTasks }) => startBackgroundTasks()), 4000);

const router = createAppRouter(session);

// A failed settings load sends the visitor home (spec §2/§8); the error stays in `errors`.
session.onFailure(() => {
  if (router.state.location.pathname !== '/') void router.navigate({ to: '/' });
});

// When the member's signed-in status changes (sign-in, sign-out, an expired session), guards run again.
let lastStatus = session.getSnapshot().status;
session.subscribe(() => {
  const { status } = session.getSnapshot();
  const wasSignedIn = lastStatus === 'signed-in';
  lastStatus = status;
  if (wasSignedIn && status !== 'signed-in') void router.invalidate();
});

// The header needs to know who is there; guards await the same request.
void session.ensure();

const container = document.getElementById('app');
if (!container) throw new Error('#app is missing from index.html');

const app = (
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>
);
/**
 * The first render (or hydration) as a transition: React then renders in slices of a few
 * milliseconds and lets the browser paint and answer input between them, instead of one long task
 * (a default-priority render is never sliced). Decision 158.
 */
function renderInSlices(render: () => void) {
  startTransition(render);
}

/** A page that starts on the 404 or error page: its code first, so that it renders at once. */
async function errorPagesIfNeeded() {
  const failed = router.state.matches.some((match) => match.status === 'notFound' || match.status === 'error' || match._notFound === true);
  if (failed || router.state.matches.length === 0) await preloadErrorPages().catch(() => undefined);
}

// A prerendered page stays on screen until its route chunks and data are loaded. It was rendered
// for its path alone: without a query string React hydrates it (the DOM is kept, its deferred parts
// are hydrated once the page is idle); with one (`?genre=`, `?preview=`…), which may change what it
// shows, it is rendered from scratch once its deferred parts and its full stylesheets are loaded too.
if (container.querySelector('[data-shell]')) {
  // A signed-in page's shell (scripts/prerender.ts): its placeholder stays until the page and its
  // full stylesheets are ready.
  void router
    .load()
    .catch(() => undefined)
    .then(errorPagesIfNeeded)
    .then(() => fullStylesheets)
    .finally(() => renderInSlices(() => createRoot(container).render(app)));
} else if (container.hasChildNodes()) {
  const hydrate = window.location.search === '';
  // Rendered from scratch, the prerendered copy is replaced: what a visitor typed in its fields
  // would be lost, so they wait, disabled, for the page that replaces them.
  if (!hydrate)
    for (const control of container.querySelectorAll<HTMLInputElement>('input, select, textarea, button')) control.disabled = true;
  void router
    .load()
    .catch(() => undefined)
    .then(errorPagesIfNeeded)
    .then(() => (hydrate ? undefined : Promise.all([loadDeferred().catch(() => undefined), fullStylesheets])))
    .finally(() => {
      if (!hydrate) {
        renderInSlices(() => createRoot(container).render(app));
        return;
      }
      // As for a server-rendered router: the match tree then has the same Suspense boundaries as the
      // prerendered HTML (scripts/prerender.ts), which hydration requires.
      router.ssr = { manifest: undefined };
      renderInSlices(() => hydrateRoot(container, app));
    });
} else renderInSlices(() => createRoot(container).render(app));
