import { createFileRoute } from '@tanstack/react-router';
import head from 'virtual:page-head/mentions-legales';
import { ContentPage, pageContent } from '#src/features/public-site/content-page.tsx';

const page = pageContent(head, () => import('virtual:content/pages/mentions-legales'));

export const Route = createFileRoute('/_default/mentions-legales')({
  component: () => <ContentPage page={page} path="/mentions-legales" eyebrow="Informations client" />,
});
