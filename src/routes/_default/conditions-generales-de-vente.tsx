import { createFileRoute } from '@tanstack/react-router';
import head from 'virtual:page-head/conditions-generales-de-vente';
import { pageContent } from '#src/features/public-site/content-page.tsx';
import { DesignedPage } from '#src/features/public-site/designed-page.tsx';

const page = pageContent(head, () => import('virtual:content/pages/conditions-generales-de-vente'));

export const Route = createFileRoute('/_default/conditions-generales-de-vente')({
  component: () => <DesignedPage page={page} layout="legal" path="/conditions-generales-de-vente" eyebrow="Informations client" />,
});
