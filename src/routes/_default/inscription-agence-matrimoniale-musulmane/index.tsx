import { createFileRoute } from '@tanstack/react-router';
import head from 'virtual:page-head/inscription';
import { RegistrationOverviewPage } from '#src/features/public-site/registration-pages.tsx';
import { pageContent } from '#src/features/public-site/content-page.tsx';

const page = pageContent(head, () => import('virtual:content/pages/inscription'));

export const Route = createFileRoute('/_default/inscription-agence-matrimoniale-musulmane/')({
  component: () => <RegistrationOverviewPage page={page} />,
});
