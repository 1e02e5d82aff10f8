/**
 * Runs `task` once the browser is idle (at the latest after `timeout` ms), or after a short delay
 * where `requestIdleCallback` does not exist. Work that a page does not need to paint and hydrate
 * (smooth scrolling, the cookie banner's code, the version check) waits for it. Returns a cancel
 * function.
 */
export function whenIdle(task: () => void, timeout = 2000): () => void {
  if (typeof window === 'undefined') return () => {};
  if ('requestIdleCallback' in window) {
    const handle = window.requestIdleCallback(task, { timeout });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = setTimeout(task, Math.min(timeout, 1500));
  return () => clearTimeout(handle);
}
