import { createFileRoute } from '@tanstack/react-router';
import { IntroductionDetailPage } from '#src/features/introductions/introduction-detail-page.tsx';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/dashboard/_staff/mises-en-relation/$id')({
  loader: async ({ context, params }) => {
    // The file's data with the page's code (and on hover of a link to it); a failure shows in the page.
    // Imported here: a loader stays in the route tree, which every page (public ones too) loads.
    const [client, { staffIntroductionQuery }] = await Promise.all([
      context.queries(),
      import('#src/features/introductions/introduction-queries.ts'),
    ]);
    await client.prefetchQuery(staffIntroductionQuery(params.id));
  },
  component: titled('Mise en relation — Union Sincère', IntroductionDetailPage),
});
