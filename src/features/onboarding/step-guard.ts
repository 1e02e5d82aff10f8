import { redirect } from '@tanstack/react-router';
import type { StepId } from '#machines/onboarding/steps.ts';
import type { RouterContext } from '#src/lib/router-context.ts';

/**
 * The route definitions (and so these guards) are in the first load of every public page; the
 * onboarding's steps are fetched only when a member route is entered.
 */
const onboardingState = () => import('#src/features/onboarding/onboarding-state.ts');

/**
 * `beforeLoad` of a `/mon-compte/inscription/<step>` route: the member may only open their
 * current step (decisions §4). Any other step redirects to it; the session is reloaded once
 * before redirecting, in case the server moved on (a payment, a booking, staff).
 */
export function stepGuard(id: StepId) {
  return async ({ context }: { context: RouterContext }) => {
    const { currentPathOf, stepInfo } = await onboardingState();
    const path = stepInfo(id).path;
    let state = await context.session.ensure();
    let current = currentPathOf(state.user?.state);
    if (current !== path) {
      state = await context.session.refresh();
      current = currentPathOf(state.user?.state);
    }
    if (state.status !== 'signed-in') return; // the layout's guard sends to sign-in
    if (current !== path) throw redirect({ href: current ?? '/mon-compte' });
  };
}

/** `beforeLoad` of `/mon-compte`: a member still onboarding goes to their current step. */
export async function accountHomeGuard({ context }: { context: RouterContext }) {
  const [{ currentPathOf }, state] = await Promise.all([onboardingState(), context.session.ensure()]);
  const current = currentPathOf(state.user?.state);
  if (current && current !== '/mon-compte') throw redirect({ href: current });
}

/** `beforeLoad` of `/mon-compte/inscription`: straight to the member's current step. */
export async function onboardingIndexGuard({ context }: { context: RouterContext }): Promise<never> {
  const [{ currentPathOf }, state] = await Promise.all([onboardingState(), context.session.ensure()]);
  throw redirect({ href: currentPathOf(state.user?.state) ?? '/mon-compte' });
}
