import { createFileRoute } from '@tanstack/react-router';
import { ProposalsPage } from '#src/features/introductions/proposals-page.tsx';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/mon-compte/propositions')({
  loader: async ({ context }) => {
    // The member's proposals with the page's code; a failure shows in the page.
    // Imported here: a loader stays in the route tree, which every page (public ones too) loads.
    const [client, { myIntroductionsQuery }] = await Promise.all([
      context.queries(),
      import('#src/features/introductions/introduction-queries.ts'),
    ]);
    await client.prefetchQuery(myIntroductionsQuery);
  },
  component: titled('Mes propositions — Union Sincère', ProposalsPage),
});
