import { ContactForm } from '#src/features/public-site/contact-form.tsx';
import { ContentPage, type PageContent } from '#src/features/public-site/content-page.tsx';

const CONTACT_PATH = '/contactez-agence-matrimoniale-musulmane';

/** `/contactez-agence-matrimoniale-musulmane`: the agency's details and the contact form. */
export function ContactPage({ page }: { page: PageContent }) {
  return <ContentPage page={page} path={CONTACT_PATH} eyebrow="Contact" aside={<ContactForm />} />;
}
