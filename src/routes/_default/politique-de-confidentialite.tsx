import { createFileRoute } from '@tanstack/react-router';
import head from 'virtual:page-head/politique-de-confidentialite';
import { ContentPage, pageContent } from '#src/features/public-site/content-page.tsx';

const page = pageContent(head, () => import('virtual:content/pages/politique-de-confidentialite'));

export const Route = createFileRoute('/_default/politique-de-confidentialite')({
  component: () => <ContentPage page={page} path="/politique-de-confidentialite" eyebrow="Informations client" />,
});
