import { createFileRoute } from '@tanstack/react-router';
import head from 'virtual:page-head/politique-de-confidentialite';
import { pageContent } from '#src/features/public-site/content-page.tsx';
import { DesignedPage } from '#src/features/public-site/designed-page.tsx';

const page = pageContent(head, () => import('virtual:content/pages/politique-de-confidentialite'));

export const Route = createFileRoute('/_default/politique-de-confidentialite')({
  component: () => <DesignedPage page={page} layout="legal" path="/politique-de-confidentialite" eyebrow="Informations client" />,
});
