import { createFileRoute } from '@tanstack/react-router';
import { ConfirmationPage } from '#src/features/auth/confirmation-page.tsx';
import { titled } from '#src/lib/document-title.tsx';
import { ConfirmEmailSearchSchema } from '#src/lib/search-schemas.ts';

/** No layout (spec §2). The registration's confirmation link lands here (`?token_hash=…&type=signup`, decision 187). */
export const Route = createFileRoute('/connexion/confirmation')({
  validateSearch: ConfirmEmailSearchSchema,
  head: () => ({ meta: [{ name: 'robots', content: 'noindex' }] }),
  component: titled('Confirmation — Union Sincère', ConfirmationPage),
});
