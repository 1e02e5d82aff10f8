import { createFileRoute } from '@tanstack/react-router';
import { NewAccountPage } from '#src/features/auth/new-account-page.tsx';

export const Route = createFileRoute('/_auth/connexion/nouveau-compte')({
  head: () => ({ meta: [{ title: 'Créer un compte — Union Sincère' }] }),
  component: NewAccountPage,
});
