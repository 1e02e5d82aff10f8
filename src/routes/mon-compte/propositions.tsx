import { createFileRoute } from '@tanstack/react-router';
import { ProposalsPage } from '#src/features/introductions/proposals-page.tsx';
import { myIntroductionsQuery } from '#src/features/introductions/introduction-queries.ts';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/mon-compte/propositions')({
  loader: async ({ context }) => {
    // The member's proposals with the page's code; a failure shows in the page.
    await (await context.queries()).prefetchQuery(myIntroductionsQuery);
  },
  component: titled('Mes propositions — Union Sincère', ProposalsPage),
});
