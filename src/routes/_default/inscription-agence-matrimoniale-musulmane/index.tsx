import { createFileRoute } from '@tanstack/react-router';
import page from 'virtual:content/pages/inscription';
import { RegistrationOverviewPage } from '#src/features/public-site/registration-pages.tsx';

export const Route = createFileRoute('/_default/inscription-agence-matrimoniale-musulmane/')({
  component: () => <RegistrationOverviewPage page={page} />,
});
