import { HeadContent, Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { Notifications } from '#src/components/ui/notifications.tsx';
import { ConsentBanner } from '#src/features/consent/consent-banner.tsx';

/**
 * The app root (spec §2): head tags of the matched routes, the page outlet and the notifications
 * region. After each client-side page change, focus moves to the new page's `#contenu` landmark so
 * keyboard and screen-reader users start at the new content.
 */
export function RootLayout() {
  const pathname = useRouterState({ select: (state) => state.resolvedLocation?.pathname });
  const previous = useRef(pathname);

  useEffect(() => {
    if (pathname === previous.current) return;
    const first = previous.current === undefined;
    previous.current = pathname;
    if (first) return;
    document.getElementById('contenu')?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <>
      <HeadContent />
      <Outlet />
      <Notifications />
      <ConsentBanner />
    </>
  );
}
