import { createFileRoute } from '@tanstack/react-router';
import head from 'virtual:page-head/mentions-legales';
import { pageContent } from '#src/features/public-site/content-page.tsx';
import { DesignedPage } from '#src/features/public-site/designed-page.tsx';

const page = pageContent(head, () => import('virtual:content/pages/mentions-legales'));

export const Route = createFileRoute('/_default/mentions-legales')({
  component: () => <DesignedPage page={page} layout="legal" path="/mentions-legales" eyebrow="Informations client" />,
});
