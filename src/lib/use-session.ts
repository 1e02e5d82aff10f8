import { useRouteContext } from '@tanstack/react-router';
import { useSyncExternalStore } from 'react';
import type { SessionState, SessionStore } from '#src/lib/session.ts';

/** The session store carried by the router context. */
export function useSessionStore(): SessionStore {
  return useRouteContext({ from: '__root__', select: (context) => context.session });
}

/** The current session state; re-renders when it changes. */
export function useSession(): SessionState {
  const store = useSessionStore();
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
