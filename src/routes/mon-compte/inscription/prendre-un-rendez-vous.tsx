import { createFileRoute } from '@tanstack/react-router';
import { BookingPage } from '#src/features/onboarding/booking-page.tsx';
import { stepGuard } from '#src/features/onboarding/step-guard.ts';

/** Onboarding step "prendre-un-rendez-vous": only the member's current step opens, any other redirects to it. */
export const Route = createFileRoute('/mon-compte/inscription/prendre-un-rendez-vous')({
  beforeLoad: stepGuard('prendre-un-rendez-vous'),
  head: () => ({ meta: [{ title: 'Prenez rendez-vous — Union Sincère' }] }),
  component: BookingPage,
});
