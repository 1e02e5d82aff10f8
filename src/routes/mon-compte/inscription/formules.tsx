import { createFileRoute } from '@tanstack/react-router';
import { PlansPage } from '#src/features/onboarding/plans-page.tsx';
import { stepGuard } from '#src/lib/route-guards.ts';
import { titled } from '#src/lib/document-title.tsx';
import { STEP_FRAMES } from '#src/features/onboarding/step-frames.ts';

/** Onboarding step "formules": only the member's current step opens, any other redirects to it. */
export const Route = createFileRoute('/mon-compte/inscription/formules')({
  beforeLoad: stepGuard('formules'),
  component: titled(`${STEP_FRAMES.formules.title} — Union Sincère`, PlansPage),
});
