import { Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { Notifications } from '#src/components/ui/notifications.tsx';
import { isTagFreeArea } from '#machines/public-site/tag-free-areas.ts';
import { DeferredConsentBanner } from '#src/features/consent/deferred-consent-banner.tsx';
import { useRouteHead } from '#src/features/layout/route-head.ts';

/**
 * The app root (spec §2): head tags of the matched routes (`useRouteHead`), the page outlet, the
 * notifications region and the cookie banner. After each client-side page change, focus moves to
 * the new page's `#contenu` landmark so keyboard and screen-reader users start at the new content.
 */
export function RootLayout() {
  const pathname = useRouterState({ select: (state) => state.resolvedLocation?.pathname });
  const tagFree = useRouterState({ select: (state) => isTagFreeArea(state.location.pathname) });
  const previous = useRef(pathname);
  useRouteHead();

  useEffect(() => {
    if (pathname === previous.current) return;
    const first = previous.current === undefined;
    previous.current = pathname;
    if (first) return;
    // The tag manager, once loaded on the public site, would follow the visitor into the member
    // area or the back office: the page is loaded afresh there, without it (decision 134). Read
    // from the page, not from tag-manager.ts, which stays out of the first load.
    if (isTagFreeArea(pathname) && document.querySelector('script[src*="googletagmanager.com/gtm.js"]')) {
      window.location.reload();
      return;
    }
    document.getElementById('contenu')?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <>
      <Outlet />
      <Notifications />
      {/* The member area and the back office set no optional cookie and load no tag: the banner
          opens there only when asked for (« Gérer les cookies », decision 134). */}
      <DeferredConsentBanner automatic={!tagFree} />
    </>
  );
}
