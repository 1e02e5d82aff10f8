import { createFileRoute } from '@tanstack/react-router';
import head from 'virtual:page-head/contact';
import { ContactPage } from '#src/features/public-site/contact-page.tsx';
import { pageContent } from '#src/features/public-site/content-page.tsx';

const page = pageContent(head, () => import('virtual:content/pages/contact'));

export const Route = createFileRoute('/_default/contactez-agence-matrimoniale-musulmane')({
  component: () => <ContactPage page={page} />,
});
