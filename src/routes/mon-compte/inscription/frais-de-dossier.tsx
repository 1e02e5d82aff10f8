import { createFileRoute } from '@tanstack/react-router';
import { FileFeePage } from '#src/features/onboarding/file-fee-page.tsx';
import { validateCsidSearch } from '#src/features/onboarding/csid-search.ts';
import { stepGuard } from '#src/lib/route-guards.ts';
import { useDocumentTitle } from '#src/lib/document-title.tsx';

/** Onboarding step "frais-de-dossier"; `?csid=` is the checkout session a payment link brings back. */
export const Route = createFileRoute('/mon-compte/inscription/frais-de-dossier')({
  validateSearch: validateCsidSearch,
  beforeLoad: stepGuard('frais-de-dossier'),
  component: function StepRoute() {
    useDocumentTitle('Paiement — Union Sincère');
    const { csid } = Route.useSearch();
    return <FileFeePage csid={csid} />;
  },
});
