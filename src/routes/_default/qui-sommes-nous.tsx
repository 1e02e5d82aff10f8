import { createFileRoute } from '@tanstack/react-router';
import head from 'virtual:page-head/qui-sommes-nous';
import { ContentPage, pageContent } from '#src/features/public-site/content-page.tsx';

const page = pageContent(head, () => import('virtual:content/pages/qui-sommes-nous'));

export const Route = createFileRoute('/_default/qui-sommes-nous')({
  component: () => <ContentPage page={page} path="/qui-sommes-nous" eyebrow="L’agence" />,
});
