import { lazy, Suspense, useState, useSyncExternalStore } from 'react';
import { notifications } from '#src/lib/notifications.ts';

const Toaster = lazy(() => import('#src/components/ui/toaster.tsx'));

const hasAny = () => notifications.getSnapshot().length > 0;

/**
 * The notifications region of the app root. The Radix Toast code is fetched only when the first
 * notification appears, which keeps it out of the first load; once loaded it stays mounted.
 */
export function Notifications() {
  const active = useSyncExternalStore(notifications.subscribe, hasAny, () => false);
  const [loaded, setLoaded] = useState(false);
  if (active && !loaded) setLoaded(true);
  return loaded ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
