import { useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { ApiFailure } from '#src/lib/api-client.ts';
import { notify } from '#src/lib/notifications.ts';
import { useSessionStore } from '#src/lib/use-session.ts';
import { postUpdate } from '#src/features/onboarding/onboarding-api.ts';
import { currentPathOf } from '#src/features/onboarding/onboarding-state.ts';

export type UpdateOutcome = { ok: true; state: string | null } | { ok: false; error: ApiFailure };

/**
 * Sends one update context; on success reloads the session and goes to the new step's screen
 * (stays when the step is the same, e.g. a sub-step of the contract). On a 409 (not allowed at
 * this step) the session is reloaded and the member is taken to where they really are.
 */
export function useOnboardingUpdate() {
  const session = useSessionStore();
  const router = useRouter();

  const goToCurrent = useCallback(async () => {
    const state = await session.refresh();
    const path = currentPathOf(state.user?.state);
    if (path && path !== router.state.location.pathname) await router.navigate({ href: path, replace: true });
    return state.user?.state ?? null;
  }, [session, router]);

  const update = useCallback(
    async (body: { context: string } & Record<string, unknown>, options: { navigate?: boolean } = {}): Promise<UpdateOutcome> => {
      const result = await postUpdate(body);
      if (result.ok) {
        if (options.navigate === false) return { ok: true, state: result.data.state ?? null };
        const state = await goToCurrent();
        return { ok: true, state };
      }
      if (result.error.status === 409 && result.error.code === 'TRANSITION_REFUSED') {
        notify({ title: 'Cette étape a changé', description: 'Nous vous ramenons à votre étape en cours.', variant: 'warning' });
        await goToCurrent();
      }
      return { ok: false, error: result.error };
    },
    [goToCurrent],
  );

  return { update, goToCurrent };
}
