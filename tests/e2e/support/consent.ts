import type { BrowserContext } from '@playwright/test';
import { CONSENT_VERSION } from '#machines/public-site/consent.ts';

/**
 * For browser tests that are not about cookies: records a "necessary only" choice before any page
 * loads, so the consent banner does not cover the page. Same shape as the SPA's stored choice
 * (`union:cookie-consent`, machines/public-site/consent.ts).
 */
export async function skipConsentBanner(context: BrowserContext, version = CONSENT_VERSION): Promise<void> {
  await context.addInitScript((consentVersion) => {
    if (window.localStorage.getItem('union:cookie-consent')) return;
    window.localStorage.setItem(
      'union:cookie-consent',
      JSON.stringify({
        anonymousId: '00000000-0000-4000-8000-000000000000',
        version: consentVersion,
        date: new Date().toISOString(),
        choices: { functional: false, statistic: false, marketing: false, unclassified: false },
      }),
    );
  }, version);
}
