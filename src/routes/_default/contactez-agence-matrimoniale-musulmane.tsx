import { createFileRoute } from '@tanstack/react-router';
import page from 'virtual:content/pages/contact';
import { ContactPage } from '#src/features/public-site/contact-page.tsx';

export const Route = createFileRoute('/_default/contactez-agence-matrimoniale-musulmane')({
  component: () => <ContactPage page={page} />,
});
