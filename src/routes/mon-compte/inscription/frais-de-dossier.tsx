import { createFileRoute } from '@tanstack/react-router';
import { FileFeePage } from '#src/features/onboarding/file-fee-page.tsx';
import { validateCsidSearch } from '#src/features/onboarding/csid-search.ts';
import { stepGuard } from '#src/lib/route-guards.ts';
import { useDocumentTitle } from '#src/lib/document-title.tsx';

/** Onboarding step "frais-de-dossier"; `?csid=` is the checkout session a payment link brings back. */
export const Route = createFileRoute('/mon-compte/inscription/frais-de-dossier')({
  // Checked in the page's chunk, not in the route tree of every first load (decision 220).
  validateSearch: (search: Record<string, unknown>) => search as { csid?: string },
  beforeLoad: stepGuard('frais-de-dossier'),
  component: function StepRoute() {
    useDocumentTitle('Paiement — Union Sincère');
    const { csid } = validateCsidSearch(Route.useSearch());
    return <FileFeePage csid={csid} />;
  },
});
