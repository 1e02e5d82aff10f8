let applied: Promise<void> | undefined;

/**
 * A prerendered page inlines only the CSS rules its own HTML uses; its full stylesheets are named
 * by `disabled` links (scripts/prerender.ts, decision 092). Switching them on as the SPA starts
 * fetches and applies them before a state change or a client-side route can show an element the
 * page did not have. They load as `media="print"`, which does not hold the first paint back (a
 * stylesheet switched on in the head before it would), and apply once loaded. Resolves when they
 * are applied (or failed: the inlined rules stay). Safe to call again.
 */
export function enableFullStylesheets(): Promise<void> {
  applied ??= Promise.all(
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][disabled]')].map(
      (link) =>
        new Promise<void>((resolve) => {
          const media = link.media || 'all';
          const done = () => {
            link.media = media;
            resolve();
          };
          link.addEventListener('load', done, { once: true });
          link.addEventListener('error', done, { once: true });
          link.media = 'print';
          link.disabled = false;
        }),
    ),
  ).then(() => undefined);
  return applied;
}
