import { createFileRoute } from '@tanstack/react-router';
import head from 'virtual:page-head/accueil';
import { HomePage } from '#src/features/public-site/home-page.tsx';
import { pageContent } from '#src/features/public-site/content-page.tsx';

const page = pageContent(head, () => import('virtual:content/pages/accueil'));

export const Route = createFileRoute('/_default/')({
  component: () => <HomePage page={page} />,
});
