import { createFileRoute } from '@tanstack/react-router';
import { FileFeePage } from '#src/features/onboarding/file-fee-page.tsx';
import { validateCsidSearch } from '#src/features/onboarding/onboarding-state.ts';
import { stepGuard } from '#src/features/onboarding/step-guard.ts';

/** Onboarding step "frais-de-dossier"; `?csid=` is the checkout session a payment link brings back. */
export const Route = createFileRoute('/mon-compte/inscription/frais-de-dossier')({
  validateSearch: validateCsidSearch,
  beforeLoad: stepGuard('frais-de-dossier'),
  head: () => ({ meta: [{ title: 'Frais de dossier — Union Sincère' }] }),
  component: function StepRoute() {
    const { csid } = Route.useSearch();
    return <FileFeePage csid={csid} />;
  },
});
