import { createFileRoute } from '@tanstack/react-router';
import { PreContractPage } from '#src/features/onboarding/pre-contract-page.tsx';
import { stepGuard } from '#src/lib/route-guards.ts';
import { titled } from '#src/lib/document-title.tsx';
import { STEP_FRAMES } from '#src/features/onboarding/step-frames.ts';

/** Onboarding step "informations-et-tarifs": only the member's current step opens, any other redirects to it. */
export const Route = createFileRoute('/mon-compte/inscription/informations-et-tarifs')({
  beforeLoad: stepGuard('informations-et-tarifs'),
  component: titled(`${STEP_FRAMES['informations-et-tarifs'].title} — Union Sincère`, PreContractPage),
});
