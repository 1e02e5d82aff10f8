import { lazy, Suspense, useEffect, useState } from 'react';
import { CONSENT_OPEN_EVENT, takePendingOpen } from '#src/features/consent/consent-opener.ts';
import { whenIdle } from '#src/lib/idle.ts';

const ConsentBanner = lazy(() => import('#src/features/consent/consent-banner.tsx').then((module) => ({ default: module.ConsentBanner })));

/**
 * The cookie banner, out of the first load: its code (texts, stored-choice validation, Consent
 * Mode) is fetched once the page is idle, or at once when « Gérer les cookies » asks for it first
 * (consent-opener.ts). Not `automatic` (the member area and the back office, decision 134): only
 * when asked for. Nothing but necessary storage happens before a choice, so waiting changes
 * nothing to consent; the banner then shows exactly as before.
 */
export function DeferredConsentBanner({ automatic = true }: { automatic?: boolean }) {
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
    // Where no tag runs (decision 134) the banner has nothing to ask: it waits to be asked for.
    const cancel = automatic ? whenIdle(() => setWanted(true)) : () => {};
    return () => {
      window.removeEventListener(CONSENT_OPEN_EVENT, onOpen);
      cancel();
    };
  }, [automatic]);

  return wanted ? (
    <Suspense fallback={null}>
      <ConsentBanner reopenRequests={requests} />
    </Suspense>
  ) : null;
}
