import { createFileRoute } from '@tanstack/react-router';
import page from 'virtual:content/pages/conditions-generales-de-vente';
import { ContentPage } from '#src/features/public-site/content-page.tsx';

export const Route = createFileRoute('/_default/conditions-generales-de-vente')({
  component: () => <ContentPage page={page} path="/conditions-generales-de-vente" eyebrow="Informations client" />,
});
