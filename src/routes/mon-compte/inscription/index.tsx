import { createFileRoute } from '@tanstack/react-router';
import { onboardingIndexGuard } from '#src/lib/route-guards.ts';

/** `/mon-compte/inscription`: straight to the member's current step. */
export const Route = createFileRoute('/mon-compte/inscription/')({
  beforeLoad: onboardingIndexGuard,
});
