import { createFileRoute } from '@tanstack/react-router';
import page from 'virtual:content/pages/pour-les-femmes';
import { RegistrationPathPage } from '#src/features/public-site/registration-pages.tsx';

export const Route = createFileRoute('/_default/inscription-agence-matrimoniale-musulmane/pour-les-femmes')({
  component: () => <RegistrationPathPage page={page} gender="femme" />,
});
