import { createFileRoute } from '@tanstack/react-router';
import { IntroductionDetailPage } from '#src/features/introductions/introduction-detail-page.tsx';
import { staffIntroductionQuery } from '#src/features/introductions/introduction-queries.ts';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/dashboard/_staff/mises-en-relation/$id')({
  loader: async ({ context, params }) => {
    // The file's data with the page's code (and on hover of a link to it); a failure shows in the page.
    await (await context.queries()).prefetchQuery(staffIntroductionQuery(params.id));
  },
  component: titled('Mise en relation — Union Sincère', IntroductionDetailPage),
});
