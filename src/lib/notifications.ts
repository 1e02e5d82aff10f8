/**
 * The notification store behind the root's toast viewport. `notify()` can be called from anywhere
 * (event handlers, guards, loaders). Each notification closes by itself after its timeout
 * (default 5000 ms), pauses while hovered or focused, resumes when the pointer leaves, and can be
 * closed by the user or by its action button. React reads it with `useSyncExternalStore`.
 */

export const NOTIFICATION_TIMEOUT_MS = 5000;
/** Time left for the exit animation before a closed notification leaves the list. */
export const NOTIFICATION_EXIT_MS = 200;
const MAX_VISIBLE = 5;

type NotificationVariant = 'info' | 'success' | 'warning' | 'error';

interface NotificationAction {
  label: string;
  /** Read by screen readers instead of the label when the action is not reachable in time. */
  altText?: string;
  onAction: () => void;
}

export interface NotificationInput {
  title: string;
  description?: string;
  variant?: NotificationVariant;
  action?: NotificationAction;
  /** Milliseconds before it closes; `Infinity` keeps it until closed. */
  duration?: number;
}

interface Notification {
  id: string;
  title: string;
  description?: string;
  variant: NotificationVariant;
  action?: NotificationAction;
  duration: number;
  open: boolean;
  paused: boolean;
}

interface Timer {
  handle: ReturnType<typeof setTimeout> | null;
  remaining: number;
  startedAt: number;
}

export interface NotificationStore {
  notify(input: NotificationInput): string;
  dismiss(id: string): void;
  pause(id: string): void;
  resume(id: string): void;
  /** Runs the action of a notification, then closes it. */
  act(id: string): void;
  getSnapshot(): readonly Notification[];
  subscribe(listener: () => void): () => void;
}

export function createNotificationStore(defaultTimeout = NOTIFICATION_TIMEOUT_MS): NotificationStore {
  let items: readonly Notification[] = [];
  const timers = new Map<string, Timer>();
  const listeners = new Set<() => void>();
  let counter = 0;

  function emit(): void {
    for (const listener of listeners) listener();
  }

  function update(id: string, patch: Partial<Notification>): void {
    items = items.map((item) => (item.id === id ? { ...item, ...patch } : item));
    emit();
  }

  function startTimer(id: string, ms: number): void {
    if (!Number.isFinite(ms)) return;
    const timer: Timer = { handle: null, remaining: ms, startedAt: Date.now() };
    timer.handle = setTimeout(() => dismiss(id), Math.max(0, ms));
    timers.set(id, timer);
  }

  function stopTimer(id: string): void {
    const timer = timers.get(id);
    if (timer?.handle) clearTimeout(timer.handle);
    timers.delete(id);
  }

  function dismiss(id: string): void {
    const item = items.find((candidate) => candidate.id === id);
    if (!item?.open) return;
    stopTimer(id);
    update(id, { open: false, paused: false });
    setTimeout(() => {
      items = items.filter((candidate) => candidate.id !== id);
      emit();
    }, NOTIFICATION_EXIT_MS);
  }

  return {
    notify(input) {
      const id = `notification-${++counter}`;
      const duration = input.duration ?? defaultTimeout;
      const item: Notification = {
        id,
        title: input.title,
        variant: input.variant ?? 'info',
        duration,
        open: true,
        paused: false,
        ...(input.description === undefined ? {} : { description: input.description }),
        ...(input.action === undefined ? {} : { action: input.action }),
      };
      items = [...items, item];
      emit();
      startTimer(id, duration);
      const open = items.filter((candidate) => candidate.open);
      if (open.length > MAX_VISIBLE) {
        const oldest = open[0];
        if (oldest) dismiss(oldest.id);
      }
      return id;
    },
    dismiss,
    pause(id) {
      const timer = timers.get(id);
      const item = items.find((candidate) => candidate.id === id);
      if (!item?.open || item.paused) return;
      if (timer?.handle) {
        clearTimeout(timer.handle);
        timer.handle = null;
        timer.remaining = Math.max(0, timer.remaining - (Date.now() - timer.startedAt));
      }
      update(id, { paused: true });
    },
    resume(id) {
      const item = items.find((candidate) => candidate.id === id);
      if (!item?.open || !item.paused) return;
      const timer = timers.get(id);
      if (timer) {
        timer.startedAt = Date.now();
        timer.handle = setTimeout(() => dismiss(id), timer.remaining);
      }
      update(id, { paused: false });
    },
    act(id) {
      const item = items.find((candidate) => candidate.id === id);
      if (!item?.open) return;
      try {
        item.action?.onAction();
      } finally {
        dismiss(id);
      }
    },
    getSnapshot: () => items,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The app's notification store, rendered by `<Notifications />` in the root. */
export const notifications: NotificationStore = createNotificationStore();

/** Shows a notification; returns its id (for `notifications.dismiss(id)`). */
export function notify(input: NotificationInput): string {
  return notifications.notify(input);
}
