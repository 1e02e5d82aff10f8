import { useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { currentPathOf } from '#src/features/onboarding/onboarding-state.ts';
import { browserEnvironment, watchState } from '#src/features/onboarding/state-watch.ts';
import { useOnboardingUpdate } from '#src/features/onboarding/use-onboarding-update.ts';

/**
 * On a waiting screen: re-reads the member's state with a back-off (state-watch.ts) and goes to
 * the new step's screen as soon as the server moved them (staff marked the meeting, a payment's
 * webhook arrived, a period ended). No button needed.
 */
export function useStateWatch() {
  const { goToCurrent } = useOnboardingUpdate();
  const router = useRouter();
  useEffect(() => {
    const here = router.state.location.pathname;
    return watchState(async () => {
      const state = await goToCurrent();
      const path = currentPathOf(state);
      return path !== null && path !== here;
    }, browserEnvironment());
  }, [goToCurrent, router]);
}

/** The watch as an element, for a screen that waits only in one of its sub-states. */
export function StateWatch() {
  useStateWatch();
  return null;
}
