import { createFileRoute } from '@tanstack/react-router';
import head from 'virtual:page-head/merci';
import { ThanksPage } from '#src/features/public-site/thanks-page.tsx';
import { pageContent } from '#src/features/public-site/content-page.tsx';

const page = pageContent(head, () => import('virtual:content/pages/merci'));

export const Route = createFileRoute('/_default/pre-inscription/merci')({
  component: () => <ThanksPage page={page} />,
});
