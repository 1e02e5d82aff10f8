import { createFileRoute } from '@tanstack/react-router';
import { ConfirmationPage } from '#src/features/auth/confirmation-page.tsx';
import { titled } from '#src/lib/document-title.tsx';

/** No layout (spec §2). */
export const Route = createFileRoute('/connexion/confirmation')({
  head: () => ({ meta: [{ name: 'robots', content: 'noindex' }] }),
  component: titled('Confirmation — Union Sincère', ConfirmationPage),
});
