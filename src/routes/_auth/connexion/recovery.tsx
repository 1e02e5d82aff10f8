import { createFileRoute } from '@tanstack/react-router';
import { RecoveryPage } from '#src/features/auth/recovery-page.tsx';

export const Route = createFileRoute('/_auth/connexion/recovery')({
  head: () => ({ meta: [{ title: 'Mot de passe oublié — Union Sincère' }] }),
  component: RecoveryPage,
});
