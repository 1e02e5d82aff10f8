import { createFileRoute } from '@tanstack/react-router';
import { ConfirmEmailPage } from '#src/features/account/confirm-email-page.tsx';
import { titled } from '#src/lib/document-title.tsx';
import { ConfirmEmailSearchSchema } from '#src/lib/search-schemas.ts';

/**
 * The link of the e-mail change confirmation mail. Outside the guarded `/mon-compte` layout: the
 * link may be opened signed out, on another device (decision 102).
 */
export const Route = createFileRoute('/mon-compte_/confirmer-email')({
  validateSearch: ConfirmEmailSearchSchema,
  head: () => ({ meta: [{ name: 'robots', content: 'noindex' }] }),
  component: titled('Confirmation de votre adresse e-mail — Union Sincère', ConfirmEmailPage),
});
