import { createFileRoute } from '@tanstack/react-router';
import page from 'virtual:content/pages/merci';
import { ThanksPage } from '#src/features/public-site/thanks-page.tsx';

export const Route = createFileRoute('/_default/pre-inscription/merci')({
  component: () => <ThanksPage page={page} />,
});
