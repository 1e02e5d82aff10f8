/**
 * A prerendered page inlines only the CSS rules its own HTML uses; its full stylesheets are named
 * by `disabled` links (scripts/prerender.ts, decision 093). Switching them on as the SPA starts
 * fetches and applies them before a state change or a client-side route can show an element the
 * page did not have. Resolves when they are applied (or failed: the inlined rules stay).
 */
export function enableFullStylesheets(): Promise<void> {
  const links = document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][disabled]');
  const applied = [...links].map(
    (link) =>
      new Promise<void>((resolve) => {
        link.addEventListener('load', () => resolve(), { once: true });
        link.addEventListener('error', () => resolve(), { once: true });
        link.disabled = false;
      }),
  );
  return Promise.all(applied).then(() => undefined);
}
