import { createFileRoute } from '@tanstack/react-router';
import page from 'virtual:content/pages/accueil';
import { HomePage } from '#src/features/public-site/home-page.tsx';

export const Route = createFileRoute('/_default/')({
  component: () => <HomePage page={page} />,
});
