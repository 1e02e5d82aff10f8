import { createFileRoute } from '@tanstack/react-router';
import head from 'virtual:page-head/pour-les-femmes';
import { RegistrationPathPage } from '#src/features/public-site/registration-pages.tsx';
import { pageContent } from '#src/features/public-site/content-page.tsx';

const page = pageContent(head, () => import('virtual:content/pages/pour-les-femmes'));

export const Route = createFileRoute('/_default/inscription-agence-matrimoniale-musulmane/pour-les-femmes')({
  component: () => <RegistrationPathPage page={page} gender="femme" />,
});
