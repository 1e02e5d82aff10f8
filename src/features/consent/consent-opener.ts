/** Opens the cookie-consent panel (listened to by the consent banner). */
export const CONSENT_OPEN_EVENT = 'consent:open';

let pending = false;

/**
 * One document listener (main.tsx, before the page is hydrated) turns a click on a
 * `[data-consent-open]` button into the `consent:open` event, so that the button works as soon as
 * the page shows, even before React and the banner's code are there: a request made before the
 * banner listens is kept (`takePendingOpen`).
 */
export function installConsentOpener(): void {
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('[data-consent-open]') : null;
    if (!button) return;
    pending = true;
    window.dispatchEvent(new CustomEvent(CONSENT_OPEN_EVENT));
  });
}

/** Whether the banner was asked for since the last call (and forgets it). */
export function takePendingOpen(): boolean {
  const was = pending;
  pending = false;
  return was;
}
