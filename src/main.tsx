import '#src/styles/global.css.ts';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { installChunkReload } from '#src/lib/chunk-reload.ts';
import { notify } from '#src/lib/notifications.ts';
import { session } from '#src/lib/session.ts';
import { createAppRouter } from '#src/router.ts';
import { startSmoothScroll } from '#src/lib/smooth-scroll.ts';
import { startVersionCheck } from '#src/lib/version-check.ts';

installChunkReload();
startSmoothScroll();

// A newer build went live: offer a reload rather than forcing it in the middle of a form.
startVersionCheck(() =>
  notify({
    title: 'Une nouvelle version du site est disponible',
    description: 'Rechargez la page pour en profiter.',
    duration: Number.POSITIVE_INFINITY,
    action: { label: 'Recharger', altText: 'Recharger la page pour la nouvelle version', onAction: () => window.location.reload() },
  }),
);

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

const render = () =>
  createRoot(container).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
// A prerendered page stays on screen until its route chunks and data are loaded (no blank flash).
if (container.hasChildNodes())
  void router
    .load()
    .catch(() => undefined)
    .finally(render);
else render();
