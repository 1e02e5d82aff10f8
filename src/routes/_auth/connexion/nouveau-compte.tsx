import { createFileRoute } from '@tanstack/react-router';
import { NewAccountPage } from '#src/features/auth/new-account-page.tsx';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/_auth/connexion/nouveau-compte')({
  component: titled('Créer un compte — Union Sincère', NewAccountPage),
});
