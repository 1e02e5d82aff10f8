/** How often the SPA asks whether a newer build is live (and whenever the tab becomes visible). */
const VERSION_CHECK_INTERVAL_MS = 5 * 60 * 1000;

declare const __BUILD_ID__: string;
/** This bundle's build id (`scripts/vite-plugin-version.ts`). */
const currentBuildId: string = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'dev';

export interface VersionCheckerOptions {
  current: string;
  /** Reads the live build id; null when it cannot be read (offline, server restarting). */
  fetchVersion: () => Promise<string | null>;
  /** Called once, the first time a different build id is seen. */
  onNewVersion: (version: string) => void;
}

/**
 * Compares the live build id with this bundle's. A failed read is ignored (the next check tries
 * again); a newer version is announced once.
 */
export function createVersionChecker(options: VersionCheckerOptions) {
  let announced = false;
  return {
    async check(): Promise<boolean> {
      if (announced) return true;
      const live = await options.fetchVersion().catch(() => null);
      if (!live || live === options.current) return false;
      announced = true;
      options.onNewVersion(live);
      return true;
    },
  };
}

/** `GET /version.json`, never from a cache. */
async function fetchLiveVersion(): Promise<string | null> {
  const response = await fetch('/version.json', { cache: 'no-store', credentials: 'omit' });
  if (!response.ok) return null;
  const body = (await response.json()) as { version?: unknown };
  return typeof body.version === 'string' ? body.version : null;
}

/** Starts the periodic check in the browser; returns a stop function. */
export function startVersionCheck(onNewVersion: (version: string) => void): () => void {
  if (currentBuildId === 'dev') return () => {};
  const checker = createVersionChecker({ current: currentBuildId, fetchVersion: fetchLiveVersion, onNewVersion });
  const run = () => void checker.check();
  const timer = window.setInterval(run, VERSION_CHECK_INTERVAL_MS);
  const onVisible = () => {
    if (document.visibilityState === 'visible') run();
  };
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    window.clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
