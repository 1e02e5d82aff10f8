import { useRouter } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { useSessionStore } from '#src/lib/use-session.ts';

/**
 * Sign-out: `POST /api/v1/auth/signout` (a write: no other site can sign a member out), then `/` (spec §4). The session is cleared locally
 * whatever the answer, so a failed call never leaves the member looking signed in; it is cleared
 * after leaving the page so the guard of a member page does not redirect to `/connexion` first.
 * The typed client is fetched on click: the header (on every public page) does not load it.
 */
export function useSignOut() {
  const router = useRouter();
  const session = useSessionStore();
  const [pending, setPending] = useState(false);

  const signOut = useCallback(async () => {
    setPending(true);
    try {
      const client = await import('#src/lib/api-client.ts').catch(() => null);
      if (client) await client.send(client.api.auth.signout.$post());
      await router.navigate({ to: '/' });
      session.clear();
      // The wizard's unsaved answers kept on this device go with the session (fetched on click).
      await import('#src/features/onboarding/drafts.ts').then((drafts) => drafts.clearDrafts()).catch(() => undefined);
      const { notify } = await import('#src/lib/notifications.ts');
      notify({ title: 'Vous êtes déconnecté(e).', variant: 'success' });
    } finally {
      setPending(false);
    }
  }, [router, session]);

  return { signOut, pending };
}
