import { useQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { currentPathOf } from '#src/features/onboarding/onboarding-state.ts';
import { moved, STATE_SCHEDULE, stateWatchQuery } from '#src/features/onboarding/state-watch.ts';
import { useOnboardingUpdate } from '#src/features/onboarding/use-onboarding-update.ts';
import { useBackoff } from '#src/lib/query-provider.tsx';

/**
 * On a waiting screen: re-reads the member's state with a back-off (state-watch.ts) and goes to
 * the new step's screen as soon as the server moved them (staff marked the meeting, a payment's
 * webhook arrived, a period ended). No button needed.
 */
export function useStateWatch() {
  const { goToCurrent } = useOnboardingUpdate();
  const router = useRouter();
  const here = router.state.location.pathname;
  const query = stateWatchQuery(here, async () => {
    const path = currentPathOf(await goToCurrent());
    return path !== null && path !== here;
  });
  const poller = useBackoff(query.queryKey, STATE_SCHEDULE, moved);
  useQuery({ ...query, refetchInterval: poller.refetchInterval });
}

/** The watch as an element, for a screen that waits only in one of its sub-states. */
export function StateWatch() {
  useStateWatch();
  return null;
}
