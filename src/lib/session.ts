import type { Aal, SessionError, SessionUser, SettingsOutcome } from '#src/lib/session-types.ts';

/**
 * The member's session as the SPA sees it. The browser never holds a token (HttpOnly cookies set
 * by the BFF); it only knows what `GET /api/v1/user/settings` answers: 200 → signed in with the
 * user settings, 401 → signed out, anything else → `failed` (the error is appended to `errors`
 * and the failure listeners — the router — send the visitor to `/`, spec §2/§8).
 *
 * A tiny external store (for `useSyncExternalStore`); guards `await store.ensure()`.
 */

export type { SessionUser, SettingsOutcome } from '#src/lib/session-types.ts';

type SessionStatus = 'unknown' | 'signed-in' | 'signed-out' | 'failed';

export interface SessionState {
  status: SessionStatus;
  user: SessionUser | null;
  aal: Aal | null;
  /** A settings request is in flight. */
  loading: boolean;
  /** Failed settings loads, oldest first (spec: "errors list"), capped at 20. */
  errors: readonly SessionError[];
}

export interface SessionStore {
  getSnapshot(): SessionState;
  subscribe(listener: () => void): () => void;
  /** The loaded state: loads once, then answers from memory (a failed load is retried). */
  ensure(): Promise<SessionState>;
  /** Reloads the settings (after sign-in, sign-up, or a change of the user's record). */
  refresh(): Promise<SessionState>;
  /** Marks the session signed out locally (after sign-out, even if the server call failed). */
  clear(): void;
  /** Called on every failed load; returns an unsubscribe function. */
  onFailure(listener: (error: SessionError) => void): () => void;
}

const MAX_ERRORS = 20;

const initialSessionState: SessionState = { status: 'unknown', user: null, aal: null, loading: false, errors: [] };

export function createSessionStore(loadSettings: () => Promise<SettingsOutcome>, now: () => Date = () => new Date()): SessionStore {
  let state = initialSessionState;
  let inflight: Promise<SessionState> | null = null;
  let generation = 0;
  const listeners = new Set<() => void>();
  const failureListeners = new Set<(error: SessionError) => void>();

  function set(next: Partial<SessionState>): void {
    state = { ...state, ...next };
    for (const listener of listeners) listener();
  }

  function apply(outcome: SettingsOutcome): void {
    switch (outcome.kind) {
      case 'signed-in':
        set({ status: 'signed-in', user: outcome.user, aal: outcome.user.aal, loading: false });
        return;
      case 'signed-out':
        set({ status: 'signed-out', user: null, aal: null, loading: false });
        return;
      case 'failed': {
        const error: SessionError = { ...outcome.error, at: now().toISOString() };
        set({ status: 'failed', user: null, aal: null, loading: false, errors: [...state.errors, error].slice(-MAX_ERRORS) });
        for (const listener of failureListeners) listener(error);
        return;
      }
    }
  }

  function load(): Promise<SessionState> {
    const mine = ++generation;
    if (!state.loading) set({ loading: true });
    const promise = loadSettings()
      .catch(
        (cause: unknown): SettingsOutcome => ({
          kind: 'failed',
          error: { status: 0, code: 'LOAD_FAILED', message: cause instanceof Error ? cause.message : String(cause) },
        }),
      )
      .then((outcome) => {
        // A newer load (or a local sign-out) superseded this one: its answer is stale.
        if (mine === generation) apply(outcome);
        return state;
      })
      .finally(() => {
        if (inflight === promise) inflight = null;
      });
    inflight = promise;
    return promise;
  }

  return {
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    ensure() {
      if (state.status === 'signed-in' || state.status === 'signed-out') return Promise.resolve(state);
      return inflight ?? load();
    },
    refresh: load,
    clear() {
      generation++;
      inflight = null;
      set({ status: 'signed-out', user: null, aal: null, loading: false });
    },
    onFailure(listener) {
      failureListeners.add(listener);
      return () => failureListeners.delete(listener);
    },
  };
}

/**
 * The session as a `SettingsOutcome`, through `GET /api/v1/auth/session` (the settings, or
 * `{ user: null }` with a 200 for a visitor: public pages then log no failed request). A plain
 * request, sent at once; the code that reads its answer (session-settings.ts) is fetched beside
 * it: the session loads on every page, neither needs to be in its first load.
 */
function fetchSettings(): Promise<SettingsOutcome> {
  const request = fetch('/api/v1/auth/session', { credentials: 'same-origin' });
  request.catch(() => undefined); // handled by `readSettings`, once loaded: not an unhandled rejection meanwhile
  return import('#src/lib/session-settings.ts').then(({ readSettings }) => readSettings(request));
}

/** The app's session store (the router context carries it). */
export const session: SessionStore = createSessionStore(fetchSettings);
