import { createFileRoute } from '@tanstack/react-router';
import { IntroductionsPage } from '#src/features/introductions/introductions-page.tsx';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/dashboard/_staff/mises-en-relation/')({
  loader: async ({ context }) => {
    // The open introductions (the page's default filter) with the page's code; a failure shows in the page.
    // Imported here: a loader stays in the route tree, which every page (public ones too) loads.
    const [client, { staffIntroductionsQuery }] = await Promise.all([
      context.queries(),
      import('#src/features/introductions/introduction-queries.ts'),
    ]);
    await client.prefetchQuery(staffIntroductionsQuery('ouvertes'));
  },
  component: titled('Mises en relation — Union Sincère', IntroductionsPage),
});
