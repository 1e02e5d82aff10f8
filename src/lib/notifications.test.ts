import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createNotificationStore, NOTIFICATION_EXIT_MS, NOTIFICATION_TIMEOUT_MS } from '#src/lib/notifications.ts';

describe('notification store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const isOpen = (store: ReturnType<typeof createNotificationStore>, id: string) => store.getSnapshot().find((n) => n.id === id)?.open;

  it('closes after 5000 ms, then leaves the list', () => {
    const store = createNotificationStore();
    const id = store.notify({ title: 'Enregistré' });
    expect(store.getSnapshot()[0]).toMatchObject({
      id,
      title: 'Enregistré',
      variant: 'info',
      duration: NOTIFICATION_TIMEOUT_MS,
      open: true,
    });
    vi.advanceTimersByTime(NOTIFICATION_TIMEOUT_MS - 1);
    expect(isOpen(store, id)).toBe(true);
    vi.advanceTimersByTime(1);
    expect(isOpen(store, id)).toBe(false);
    vi.advanceTimersByTime(NOTIFICATION_EXIT_MS);
    expect(store.getSnapshot()).toHaveLength(0);
  });

  it('pauses on hover and resumes with the time that was left', () => {
    const store = createNotificationStore();
    const id = store.notify({ title: 'Bonjour' });
    vi.advanceTimersByTime(3000);
    store.pause(id);
    expect(store.getSnapshot()[0]?.paused).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(isOpen(store, id)).toBe(true);
    store.resume(id);
    vi.advanceTimersByTime(1999);
    expect(isOpen(store, id)).toBe(true);
    vi.advanceTimersByTime(1);
    expect(isOpen(store, id)).toBe(false);
  });

  it('ignores a double pause and a resume without pause', () => {
    const store = createNotificationStore();
    const id = store.notify({ title: 'x' });
    store.resume(id);
    vi.advanceTimersByTime(1000);
    store.pause(id);
    vi.advanceTimersByTime(1000);
    store.pause(id);
    store.resume(id);
    vi.advanceTimersByTime(3999);
    expect(isOpen(store, id)).toBe(true);
    vi.advanceTimersByTime(1);
    expect(isOpen(store, id)).toBe(false);
  });

  it('is closed by the user, or by its action which runs once', () => {
    const store = createNotificationStore();
    const onAction = vi.fn();
    const a = store.notify({ title: 'a' });
    const b = store.notify({ title: 'b', action: { label: 'Annuler', onAction } });
    store.dismiss(a);
    expect(isOpen(store, a)).toBe(false);
    store.act(b);
    store.act(b);
    expect(onAction).toHaveBeenCalledOnce();
    expect(isOpen(store, b)).toBe(false);
  });

  it('keeps an infinite notification until closed and honours a custom duration', () => {
    const store = createNotificationStore();
    const sticky = store.notify({ title: 'sticky', duration: Number.POSITIVE_INFINITY });
    const quick = store.notify({ title: 'quick', duration: 1000 });
    vi.advanceTimersByTime(1000);
    expect(isOpen(store, quick)).toBe(false);
    vi.advanceTimersByTime(100_000);
    expect(isOpen(store, sticky)).toBe(true);
  });

  it('keeps at most five open', () => {
    const store = createNotificationStore();
    const ids = Array.from({ length: 6 }, (_, i) => store.notify({ title: `n${i}` }));
    expect(
      store
        .getSnapshot()
        .filter((n) => n.open)
        .map((n) => n.id),
    ).toEqual(ids.slice(1));
  });
});
