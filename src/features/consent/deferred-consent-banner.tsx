import { lazy, Suspense, useEffect, useState } from 'react';
import { CONSENT_OPEN_EVENT, noStoredChoice, takePendingOpen } from '#src/features/consent/consent-opener.ts';
import { whenIdle } from '#src/lib/idle.ts';

const loadBanner = () => import('#src/features/consent/consent-banner.tsx');
// A first visit fetches the banner's code as the app starts, beside the page's own chunks, not
// once the routes' guards have run (on the member area it was otherwise the last paint).
if (typeof window !== 'undefined' && noStoredChoice()) void loadBanner();
const ConsentBanner = lazy(() => loadBanner().then((module) => ({ default: module.ConsentBanner })));

/**
 * The cookie banner, out of the first load: its code (texts, stored-choice validation, Consent
 * Mode) is fetched right after the first render when no choice is stored yet (the banner shows on
 * arrival; on the member area's pages it was otherwise their last and largest paint), once the page
 * is idle when one is, or at once when « Gérer les cookies » asks for it first (consent-opener.ts). Nothing but necessary storage happens before a choice, so waiting changes
 * nothing to consent; the banner then shows exactly as before.
 */
export function DeferredConsentBanner() {
  const [wanted, setWanted] = useState(false);
  /** How many times the banner was asked for: each one reopens it with its categories. */
  const [requests, setRequests] = useState(0);

  useEffect(() => {
    const onOpen = () => {
      takePendingOpen();
      setWanted(true);
      setRequests((count) => count + 1);
    };
    if (takePendingOpen()) onOpen();
    window.addEventListener(CONSENT_OPEN_EVENT, onOpen);
    // A first visit must see the banner on arrival: its code is fetched at once, beside the page's
    // own. With a choice stored, nothing shows, and the code waits for the page to be idle.
    if (noStoredChoice()) {
      setWanted(true);
      return () => window.removeEventListener(CONSENT_OPEN_EVENT, onOpen);
    }
    const cancel = whenIdle(() => setWanted(true));
    return () => {
      window.removeEventListener(CONSENT_OPEN_EVENT, onOpen);
      cancel();
    };
  }, []);

  return wanted ? (
    <Suspense fallback={null}>
      <ConsentBanner reopenRequests={requests} />
    </Suspense>
  ) : null;
}
