import { createFileRoute } from '@tanstack/react-router';
import { ContractPage } from '#src/features/onboarding/contract-page.tsx';
import { validateCsidSearch } from '#src/features/onboarding/csid-search.ts';
import { stepGuard } from '#src/features/onboarding/step-guard.ts';
import { useDocumentTitle } from '#src/lib/document-title.tsx';

/** Onboarding step "attente-contrat"; `?csid=` is the checkout session a payment link brings back. */
export const Route = createFileRoute('/mon-compte/inscription/attente-contrat')({
  validateSearch: validateCsidSearch,
  beforeLoad: stepGuard('attente-contrat'),
  component: function StepRoute() {
    useDocumentTitle('Votre contrat — Union Sincère');
    const { csid } = Route.useSearch();
    return <ContractPage csid={csid} />;
  },
});
