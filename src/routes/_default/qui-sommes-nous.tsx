import { createFileRoute } from '@tanstack/react-router';
import page from 'virtual:content/pages/qui-sommes-nous';
import { ContentPage } from '#src/features/public-site/content-page.tsx';

export const Route = createFileRoute('/_default/qui-sommes-nous')({
  component: () => <ContentPage page={page} path="/qui-sommes-nous" eyebrow="L’agence" />,
});
