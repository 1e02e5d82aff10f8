import { type ConsentModeState, consentModeDefaults } from '#machines/public-site/consent.ts';
import { isTagFreeArea } from '#machines/public-site/tag-free-areas.ts';

/**
 * Google Consent Mode v2 and Google Tag Manager (decisions §7, CNIL). The Consent Mode defaults
 * (everything denied but security) are pushed to the dataLayer before any tag can exist; the tag
 * manager itself is injected only after the visitor accepted a category it serves, and only when
 * a GTM id is configured (`GTM_ID`, read from `/api/v1/public-config`).
 */

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

const GTM_SCRIPT_ORIGIN = 'https://www.googletagmanager.com';

function dataLayer(): unknown[] {
  window.dataLayer = window.dataLayer ?? [];
  return window.dataLayer;
}

/** The `gtag()` of Google's snippet: pushes its `arguments` object, as GTM expects. */
function gtag(..._args: unknown[]): void {
  // biome-ignore lint/complexity/noArguments: Consent Mode reads the Arguments object, not an array
  dataLayer().push(arguments);
}

let defaultsSet = false;

/** Consent Mode defaults, once, before anything else reaches the dataLayer. */
export function setConsentDefaults(): void {
  if (defaultsSet || typeof window === 'undefined') return;
  defaultsSet = true;
  gtag('consent', 'default', { ...consentModeDefaults, wait_for_update: 500 });
  gtag('set', 'ads_data_redaction', true);
}

export function updateConsent(state: ConsentModeState): void {
  if (typeof window === 'undefined') return;
  setConsentDefaults();
  gtag('consent', 'update', state);
}

let injected = false;

/**
 * Injects GTM once (async script, no inline code: the CSP allows only its origin); never in the
 * member area or the back office (decision 134).
 */
export function loadTagManager(gtmId: string): boolean {
  if (injected || typeof document === 'undefined' || !/^GTM-[A-Z0-9]+$/.test(gtmId)) return false;
  if (isTagFreeArea(window.location.pathname)) return false;
  injected = true;
  dataLayer().push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  const script = document.createElement('script');
  script.async = true;
  script.src = `${GTM_SCRIPT_ORIGIN}/gtm.js?id=${encodeURIComponent(gtmId)}`;
  document.head.append(script);
  return true;
}
