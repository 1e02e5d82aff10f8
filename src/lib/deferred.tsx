import { type ReactNode, Suspense, use } from 'react';
import { whenIdle } from '#src/lib/idle.ts';

/**
 * Code or content that a prerendered page does not need to paint or to become interactive: the
 * long text of a page, sections made of static copy. It stays out of the page's first load:
 *
 * - the prerender (scripts/prerender.ts through src/entry-prerender.tsx) loads every deferred part
 *   of the page first (`loadDeferred`), so the HTML holds it, inside a Suspense boundary;
 * - in the browser, hydration leaves that boundary's server HTML in place (selective hydration)
 *   and fetches its code once the page is idle (or at the visitor's first input), then hydrates it;
 *   until then its links work as plain links;
 * - after a client-side navigation it is fetched at once.
 */
export interface Deferred<T> {
  /** The value, when already loaded. */
  peek(): T | undefined;
  /** Loads it: in the browser, not before the page's first idle moment unless `now`. */
  load(now?: boolean): Promise<T>;
}

const registry = new Set<Deferred<unknown>>();

const FIRST_INPUT_EVENTS = ['pointerdown', 'keydown', 'touchstart'] as const;

let firstIdle: Promise<void> | null = null;
/** Resolves at the page's first idle moment or the visitor's first input, whichever comes first; at once afterwards. */
function afterFirstIdle(): Promise<void> {
  firstIdle ??=
    typeof window === 'undefined'
      ? Promise.resolve()
      : new Promise((resolve) => {
          const done = () => {
            for (const type of FIRST_INPUT_EVENTS) window.removeEventListener(type, done, true);
            cancel();
            resolve();
          };
          const cancel = whenIdle(done);
          for (const type of FIRST_INPUT_EVENTS) window.addEventListener(type, done, { capture: true, passive: true });
        });
  return firstIdle;
}

export function deferred<T>(loader: () => Promise<T>): Deferred<T> {
  let value: T | undefined;
  let loaded = false;
  let promise: Promise<T> | null = null;
  const part: Deferred<T> = {
    peek: () => (loaded ? value : undefined),
    load(now = false) {
      promise ??= (now ? Promise.resolve() : afterFirstIdle()).then(loader).then((result) => {
        value = result;
        loaded = true;
        return result;
      });
      return promise;
    },
  };
  registry.add(part as Deferred<unknown>);
  return part;
}

/**
 * Loads every deferred part defined so far, at once: the prerender before rendering a page, and
 * the browser before rendering a prerendered page from scratch instead of hydrating it.
 */
export async function loadDeferred(): Promise<void> {
  await Promise.all([...registry].map((part) => part.load(true)));
}

/** Starts the browser's clock for `afterFirstIdle` (main.tsx, at start). */
export function startDeferredClock(): void {
  void afterFirstIdle();
}

function Loaded<T>({ part, render }: { part: Deferred<T>; render: (value: T) => ReactNode }) {
  return render(use(part.load()));
}

/**
 * Renders `render(value)` inside a Suspense boundary (always, so that the prerendered HTML and the
 * browser's tree have the same boundaries): at once when the value is loaded, else once it is.
 */
export function DeferredPart<T>({ part, render }: { part: Deferred<T>; render: (value: T) => ReactNode }) {
  const value = part.peek();
  return <Suspense fallback={null}>{value !== undefined ? render(value) : <Loaded part={part} render={render} />}</Suspense>;
}
