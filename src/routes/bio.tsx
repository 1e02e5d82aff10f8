import { createFileRoute } from '@tanstack/react-router';
import head from 'virtual:page-head/bio';
import { BioPage } from '#src/features/public-site/bio-page.tsx';
import { pageContent } from '#src/features/public-site/content-page.tsx';

/** No layout (spec §2): a link-in-bio page. */
const page = pageContent(head, () => import('virtual:content/pages/bio'));

export const Route = createFileRoute('/bio')({
  component: () => <BioPage page={page} />,
});
