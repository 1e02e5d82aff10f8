import { Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { Notifications } from '#src/components/ui/notifications.tsx';
import { DeferredConsentBanner } from '#src/features/consent/deferred-consent-banner.tsx';
import { useRouteHead } from '#src/features/layout/route-head.ts';

/** Staff pages (`/dashboard…`): no consent banner, no tag manager. */
export const isBackOffice = (pathname: string | undefined) => pathname === '/dashboard' || (pathname?.startsWith('/dashboard/') ?? false);

/**
 * The app root (spec §2): head tags of the matched routes (`useRouteHead`), the page outlet, the
 * notifications region and the cookie banner. After each client-side page change, focus moves to
 * the new page's `#contenu` landmark so keyboard and screen-reader users start at the new content.
 */
export function RootLayout() {
  const pathname = useRouterState({ select: (state) => state.resolvedLocation?.pathname });
  const backOffice = useRouterState({ select: (state) => isBackOffice(state.location.pathname) });
  const previous = useRef(pathname);
  useRouteHead();

  useEffect(() => {
    if (pathname === previous.current) return;
    const first = previous.current === undefined;
    previous.current = pathname;
    if (first) return;
    document.getElementById('contenu')?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <>
      <Outlet />
      <Notifications />
      {/* The back office sets no optional cookie and loads no tag: no banner there (issue 21). */}
      {backOffice ? null : <DeferredConsentBanner />}
    </>
  );
}
