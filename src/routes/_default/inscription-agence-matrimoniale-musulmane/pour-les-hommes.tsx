import { createFileRoute } from '@tanstack/react-router';
import page from 'virtual:content/pages/pour-les-hommes';
import { RegistrationPathPage } from '#src/features/public-site/registration-pages.tsx';

export const Route = createFileRoute('/_default/inscription-agence-matrimoniale-musulmane/pour-les-hommes')({
  component: () => <RegistrationPathPage page={page} gender="homme" />,
});
