import { api, send } from '#src/lib/api-client.ts';

/**
 * The member's session as the SPA sees it. The browser never holds a token (HttpOnly cookies set
 * by the BFF); it only knows what `GET /api/v1/user/settings` answers: 200 → signed in with the
 * user settings, 401 → signed out, anything else → `failed` (the error is appended to `errors`
 * and the failure listeners — the router — send the visitor to `/`, spec §2/§8).
 *
 * A tiny external store (for `useSyncExternalStore`); guards `await store.ensure()`.
 */

export type Aal = 'aal1' | 'aal2';

/** The `subscription` object of the settings, with the spec's field names (§3). */
export interface SubscriptionSettings {
  renouncedWithdrawalRight: boolean | null;
  applicationFeesPaid: boolean;
  subscriptionFeesPaid: boolean;
  formPersonnalInfoCompleted: boolean;
  subscriptionDate: string | null;
  subscriptionContractFormCompleted: boolean;
  onboardingMeetingDateSelected: boolean;
  onboardingMeetingDone: boolean;
  onboardingMeetingDate: string | null;
  [field: string]: unknown;
}

export interface SessionUser {
  id: string;
  email: string;
  /** `homme`, `femme` or `staff`. */
  role: string;
  aal: Aal;
  selectedPlanId: string | null;
  meeting: unknown;
  subscription: SubscriptionSettings;
  /** Where the member stands in the onboarding chart, dotted (`'attente-contrat.paiement'`); null for staff. */
  state?: string | null;
  /** The member's onboarding record, from which the wizard restores the chart; null for staff. */
  onboarding?: unknown;
  /** The record's version (changes with every accepted event). */
  version?: number;
}

export type SessionStatus = 'unknown' | 'signed-in' | 'signed-out' | 'failed';

export interface SessionError {
  at: string;
  status: number;
  code: string;
  message: string;
}

export interface SessionState {
  status: SessionStatus;
  user: SessionUser | null;
  aal: Aal | null;
  /** A settings request is in flight. */
  loading: boolean;
  /** Failed settings loads, oldest first (spec: "errors list"), capped at 20. */
  errors: readonly SessionError[];
}

export type SettingsOutcome =
  | { kind: 'signed-in'; user: SessionUser }
  | { kind: 'signed-out' }
  | { kind: 'failed'; error: Omit<SessionError, 'at'> };

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

export const initialSessionState: SessionState = { status: 'unknown', user: null, aal: null, loading: false, errors: [] };

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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the settings answer; an answer without an id counts as signed out (spec §7). */
export function toSessionUser(body: unknown): SessionUser | null {
  const source = isRecord(body) && isRecord(body.user) && !('id' in body) ? body.user : body;
  if (!isRecord(source) || typeof source.id !== 'string' || source.id === '') return null;
  return {
    id: source.id,
    email: typeof source.email === 'string' ? source.email : '',
    role: typeof source.role === 'string' ? source.role : '',
    aal: source.aal === 'aal2' ? 'aal2' : 'aal1',
    selectedPlanId: typeof source.selectedPlanId === 'string' ? source.selectedPlanId : null,
    meeting: source.meeting ?? null,
    subscription: (isRecord(source.subscription) ? source.subscription : {}) as SubscriptionSettings,
    state: typeof source.state === 'string' ? source.state : null,
    onboarding: isRecord(source.onboarding) ? source.onboarding : null,
    version: typeof source.version === 'number' ? source.version : 0,
  };
}

/**
 * The session as a `SettingsOutcome`, through `GET /api/v1/auth/session` (the settings, or
 * `{ user: null }` with a 200 for a visitor: public pages then log no failed request).
 */
export async function fetchSettings(): Promise<SettingsOutcome> {
  const result = await send(api.auth.session.$get());
  if (result.ok) {
    const user = toSessionUser(result.data);
    return user ? { kind: 'signed-in', user } : { kind: 'signed-out' };
  }
  if (result.error.status === 401) return { kind: 'signed-out' };
  const { status, code, message } = result.error;
  return { kind: 'failed', error: { status, code, message } };
}

/** The app's session store (the router context carries it). */
export const session: SessionStore = createSessionStore(fetchSettings);
