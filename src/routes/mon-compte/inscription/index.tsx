import { createFileRoute, redirect } from '@tanstack/react-router';
import { currentPathOf } from '#src/features/onboarding/onboarding-state.ts';

/** `/mon-compte/inscription`: straight to the member's current step. */
export const Route = createFileRoute('/mon-compte/inscription/')({
  beforeLoad: async ({ context }) => {
    const state = await context.session.ensure();
    throw redirect({ href: currentPathOf(state.user?.state) ?? '/mon-compte' });
  },
});
