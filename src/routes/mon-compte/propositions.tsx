import { createFileRoute } from '@tanstack/react-router';
import { ProposalsPage } from '#src/features/introductions/proposals-page.tsx';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/mon-compte/propositions')({
  component: titled('Mes propositions — Union Sincère', ProposalsPage),
});
