import { createFileRoute } from '@tanstack/react-router';
import { ContractPage } from '#src/features/onboarding/contract-page.tsx';
import { stepGuard } from '#src/lib/route-guards.ts';
import { useDocumentTitle } from '#src/lib/document-title.tsx';

/** Onboarding step "attente-contrat" (contract, signature, 7 days without payment); `?csid=` is accepted and ignored (payments return to frais-de-dossier). */
export const Route = createFileRoute('/mon-compte/inscription/attente-contrat')({
  // Accepted and ignored: not read, so not checked (decision 220).
  validateSearch: (search: Record<string, unknown>) => search as { csid?: string },
  beforeLoad: stepGuard('attente-contrat'),
  component: function StepRoute() {
    useDocumentTitle('Votre contrat — Union Sincère');
    return <ContractPage />;
  },
});
