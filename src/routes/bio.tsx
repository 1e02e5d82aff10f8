import { createFileRoute } from '@tanstack/react-router';
import page from 'virtual:content/pages/bio';
import { BioPage } from '#src/features/public-site/bio-page.tsx';

/** No layout (spec §2): a link-in-bio page. */
export const Route = createFileRoute('/bio')({
  component: () => <BioPage page={page} />,
});
