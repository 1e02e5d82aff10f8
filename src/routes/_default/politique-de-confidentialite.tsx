import { createFileRoute } from '@tanstack/react-router';
import page from 'virtual:content/pages/politique-de-confidentialite';
import { ContentPage } from '#src/features/public-site/content-page.tsx';

export const Route = createFileRoute('/_default/politique-de-confidentialite')({
  component: () => <ContentPage page={page} path="/politique-de-confidentialite" eyebrow="Informations client" />,
});
