import { createFileRoute } from '@tanstack/react-router';
import { BookingPage } from '#src/features/onboarding/booking-page.tsx';
import { stepGuard } from '#src/lib/route-guards.ts';
import { titled } from '#src/lib/document-title.tsx';
import { STEP_FRAMES } from '#src/features/onboarding/step-frames.ts';

/** Onboarding step "prendre-un-rendez-vous": only the member's current step opens, any other redirects to it. */
export const Route = createFileRoute('/mon-compte/inscription/prendre-un-rendez-vous')({
  beforeLoad: stepGuard('prendre-un-rendez-vous'),
  component: titled(`${STEP_FRAMES['prendre-un-rendez-vous'].title} — Union Sincère`, BookingPage),
});
