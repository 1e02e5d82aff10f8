import { createFileRoute } from '@tanstack/react-router';
import { ContractPage } from '#src/features/onboarding/contract-page.tsx';
import { validateCsidSearch } from '#src/features/onboarding/onboarding-state.ts';
import { stepGuard } from '#src/features/onboarding/step-guard.ts';

/** Onboarding step "attente-contrat"; `?csid=` is the checkout session a payment link brings back. */
export const Route = createFileRoute('/mon-compte/inscription/attente-contrat')({
  validateSearch: validateCsidSearch,
  beforeLoad: stepGuard('attente-contrat'),
  head: () => ({ meta: [{ title: 'Votre contrat — Union Sincère' }] }),
  component: function StepRoute() {
    const { csid } = Route.useSearch();
    return <ContractPage csid={csid} />;
  },
});
