import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { whenIdle } from '#src/lib/idle.ts';
import type { NotificationStore } from '#src/lib/notifications.ts';

const Toaster = lazy(() => import('#src/components/ui/toaster.tsx'));

/**
 * The notifications region of the app root. The store (`notify()`) is read once the page is idle
 * (every notification comes from an action or a background check, and one created before then is
 * kept by the store and shown at that point); the Radix Toast code is fetched only when the first
 * notification appears. Neither is part of the first load; once loaded the toaster stays mounted.
 */
export function Notifications() {
  const [store, setStore] = useState<NotificationStore | null>(null);
  useEffect(() => whenIdle(() => void import('#src/lib/notifications.ts').then((module) => setStore(module.notifications))), []);
  return store ? <NotificationsRegion store={store} /> : null;
}

function NotificationsRegion({ store }: { store: NotificationStore }) {
  const active = useSyncExternalStore(
    store.subscribe,
    () => store.getSnapshot().length > 0,
    () => false,
  );
  const [loaded, setLoaded] = useState(false);
  if (active && !loaded) setLoaded(true);
  return loaded ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
