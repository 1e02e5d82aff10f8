import { useEffect } from 'react';

/** How long a page may take to draw the card a link's `#anchor` names. */
const WAIT_MS = 5_000;

/**
 * Brings the element the address's `#anchor` names into view once the page has drawn it (a
 * member's file draws its cards after its data arrives): « Aujourd’hui »'s links open the right
 * card of the file (issue 63). Nothing happens without an anchor, or if it never appears.
 */
export function useScrollToHash(key: string): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again for another page (`key`), reads the address itself
  useEffect(() => {
    const id = decodeURIComponent(globalThis.location?.hash.slice(1) ?? '');
    if (!id) return;
    const until = Date.now() + WAIT_MS;
    let frame = 0;
    const look = () => {
      const target = document.getElementById(id);
      if (target) {
        target.scrollIntoView({ block: 'start' });
        return;
      }
      if (Date.now() < until) frame = requestAnimationFrame(look);
    };
    frame = requestAnimationFrame(look);
    return () => cancelAnimationFrame(frame);
  }, [key]);
}
