import * as Toast from '@radix-ui/react-toast';
import { useSyncExternalStore } from 'react';
import { buttonClass } from '#src/components/ui/button.css.ts';
import * as styles from '#src/components/ui/toaster.css.ts';
import { notifications } from '#src/lib/notifications.ts';

/**
 * The Radix Toast viewport of the app. Timing belongs to the notification store (Radix runs with
 * an infinite duration and only reports hover/focus through onPause/onResume), so the 5 s timeout,
 * the pause on hover and the resume on leave are the store's, tested with fake timers.
 * Loaded lazily by `<Notifications />` when the first notification appears.
 */
export default function Toaster() {
  const items = useSyncExternalStore(notifications.subscribe, notifications.getSnapshot, notifications.getSnapshot);
  return (
    <Toast.Provider duration={Number.POSITIVE_INFINITY} label="Notification" swipeDirection="right">
      {items.map((item) => (
        <Toast.Root
          key={item.id}
          open={item.open}
          type={item.variant === 'error' ? 'foreground' : 'background'}
          className={styles.variant[item.variant]}
          onOpenChange={(open) => {
            if (!open) notifications.dismiss(item.id);
          }}
          onPause={() => notifications.pause(item.id)}
          onResume={() => notifications.resume(item.id)}
        >
          <Toast.Title className={styles.title}>{item.title}</Toast.Title>
          {item.description ? <Toast.Description className={styles.description}>{item.description}</Toast.Description> : null}
          {item.action ? (
            <Toast.Action asChild altText={item.action.altText ?? item.action.label}>
              <button type="button" className={`${buttonClass.secondary} ${styles.action}`} onClick={() => notifications.act(item.id)}>
                {item.action.label}
              </button>
            </Toast.Action>
          ) : null}
          <Toast.Close className={styles.close} aria-label="Fermer la notification">
            <span aria-hidden="true">×</span>
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport className={styles.viewport} label="Notifications ({hotkey})" />
    </Toast.Provider>
  );
}
