/**
 * Chunk-load resilience (spec §4/§8): after a deploy, an open tab may ask for a lazy chunk that no
 * longer exists. The page then reloads once to fetch the new build. A sessionStorage timestamp
 * stops a reload loop: no second reload within 10 s (spec §9 "page reload guard: 10 s").
 */
export const RELOAD_GUARD_MS = 10_000;
export const RELOAD_STORAGE_KEY = 'union-sincere:chunk-reload-at';

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading (CSS )?chunk [\w-]+ failed|ChunkLoadError/i;

export function isChunkLoadError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { name, message } = error as { name?: unknown; message?: unknown };
  return (typeof name === 'string' && name === 'ChunkLoadError') || (typeof message === 'string' && CHUNK_ERROR.test(message));
}

export interface ReloadDeps {
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  now: () => number;
  reload: () => void;
}

function browserDeps(): ReloadDeps {
  let storage: Storage | null = null;
  try {
    storage = window.sessionStorage;
  } catch {
    storage = null; // storage disabled: still reload, but only if we can remember it
  }
  return { storage, now: Date.now, reload: () => window.location.reload() };
}

/** Reloads the page unless it already did so in the last 10 s; returns whether it reloads. */
export function reloadOnce(deps: ReloadDeps = browserDeps()): boolean {
  const { storage, now, reload } = deps;
  if (!storage) return false;
  try {
    const last = Number(storage.getItem(RELOAD_STORAGE_KEY));
    if (Number.isFinite(last) && last > 0 && now() - last < RELOAD_GUARD_MS) return false;
    storage.setItem(RELOAD_STORAGE_KEY, String(now()));
  } catch {
    return false;
  }
  reload();
  return true;
}

/** Listens to Vite's `vite:preloadError` (a failed dynamic import or its CSS) and reloads once. */
export function installChunkReload(): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadOnce()) event.preventDefault();
  });
}
