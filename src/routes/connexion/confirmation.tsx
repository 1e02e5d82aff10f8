import { createFileRoute } from '@tanstack/react-router';
import { ConfirmationPage } from '#src/features/auth/confirmation-page.tsx';

/** No layout (spec §2). */
export const Route = createFileRoute('/connexion/confirmation')({
  head: () => ({ meta: [{ title: 'Confirmation — Union Sincère' }, { name: 'robots', content: 'noindex' }] }),
  component: ConfirmationPage,
});
