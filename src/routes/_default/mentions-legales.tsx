import { createFileRoute } from '@tanstack/react-router';
import page from 'virtual:content/pages/mentions-legales';
import { ContentPage } from '#src/features/public-site/content-page.tsx';

export const Route = createFileRoute('/_default/mentions-legales')({
  component: () => <ContentPage page={page} path="/mentions-legales" eyebrow="Informations client" />,
});
