import { type DependencyList, type SetStateAction, useCallback, useEffect, useRef, useState } from 'react';
import type { ApiResult } from '#src/lib/api-result.ts';

/**
 * @deprecated Decision 214: the SPA's server data goes through TanStack Query
 * (src/lib/query-client.ts). Kept only for the files rewritten by other work during issue 61 and
 * migrated after it is merged: dashboard-home-page.tsx, member-page.tsx,
 * member-follow-up-section.tsx, leads-page.tsx, introductions/candidates-section.tsx. Do not use it
 * in new code; delete it with their migration.
 */
/**
 * One list or file a page loads and shows: the data (null until the first success), the French
 * message of the last failed load (cleared by a success), and whether a load is running.
 */
export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
}

/** The state before any load: empty, or the answer the parent already fetched. */
export function initialLoaded<T>(initial?: ApiResult<T>): Loaded<T> {
  if (!initial) return { data: null, error: null, loading: false };
  return initial.ok ? { data: initial.data, error: null, loading: false } : { data: null, error: initial.error.message, loading: false };
}

/** What a component does with the state: React's `setState`, or a plain variable in tests. */
export type UpdateLoaded<T> = (change: (state: Loaded<T>) => Loaded<T>) => void;

export interface Loader<T> {
  /** Loads; resolves once the answer is shown (or dropped, if a newer load or `stop()` came first). */
  load: (request: () => Promise<ApiResult<T>>) => Promise<void>;
  /** The component left or its inputs changed: answers still on their way are dropped. */
  stop: () => void;
}

/**
 * The pure part of `useLoaded`: each load supersedes the earlier ones, so a late answer never
 * overwrites a newer one, and nothing is shown once stopped.
 */
export function createLoader<T>(update: UpdateLoaded<T>): Loader<T> {
  let latest = 0;
  let stopped = false;
  return {
    async load(request) {
      if (stopped) return;
      latest += 1;
      const mine = latest;
      update((state) => ({ ...state, loading: true }));
      const result = await request();
      if (stopped || mine !== latest) return;
      update((state) =>
        result.ok ? { data: result.data, error: null, loading: false } : { ...state, error: result.error.message, loading: false },
      );
    },
    stop() {
      stopped = true;
    },
  };
}

/**
 * What `useLoaded` runs when the component mounts or its inputs change: a fresh loader (handed to
 * `keep` for `reload()`), its first load unless `enabled` is false, and the cleanup that stops it.
 */
export function startLoader<T>(
  update: UpdateLoaded<T>,
  request: () => Promise<ApiResult<T>>,
  enabled: boolean,
  keep: (loader: Loader<T>) => void,
): () => void {
  const loader = createLoader(update);
  keep(loader);
  if (enabled) void loader.load(request);
  return loader.stop;
}

export interface LoadedOptions<T> {
  /** False: no load on mount or when the inputs change (`reload()` still loads). */
  enabled?: boolean;
  /** An answer the parent already fetched: shown at once (pass `enabled: false` not to fetch it again). */
  initial?: ApiResult<T>;
}

/**
 * Loads `request` on mount and again when `deps` change (the dependencies of `request`, as for
 * `useCallback`); `reload()` loads again and resolves once the answer is shown; `setData` changes
 * the data in place (after an upload, say).
 */
export function useLoaded<T>(request: () => Promise<ApiResult<T>>, deps: DependencyList, options: LoadedOptions<T> = {}) {
  const enabled = options.enabled ?? true;
  const [state, setState] = useState<Loaded<T>>(() => initialLoaded(options.initial));
  const loader = useRef<Loader<T> | null>(null);
  const latestRequest = useRef(request);
  latestRequest.current = request;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `request` changes with `deps`, which the caller lists.
  useEffect(
    () =>
      startLoader(setState, request, enabled, (started) => {
        loader.current = started;
      }),
    [...deps, enabled],
  );

  const reload = useCallback(async () => {
    await loader.current?.load(latestRequest.current);
  }, []);
  const setData = useCallback((data: SetStateAction<T | null>) => {
    setState((state) => ({ ...state, data: typeof data === 'function' ? (data as (previous: T | null) => T | null)(state.data) : data }));
  }, []);

  return { data: state.data, error: state.error, loading: state.loading, reload, setData };
}
