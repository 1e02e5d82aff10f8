import { notify } from '#src/lib/notifications.ts';
import { startSmoothScroll } from '#src/lib/smooth-scroll.ts';
import { startVersionCheck } from '#src/lib/version-check.ts';

/** What the app starts once the page is idle (main.tsx): smooth scrolling and the version check. */
export function startBackgroundTasks(): void {
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
}
