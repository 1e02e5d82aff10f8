import { createFileRoute } from '@tanstack/react-router';
import { RecoveryPage } from '#src/features/auth/recovery-page.tsx';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/_auth/connexion/recovery')({
  component: titled('Mot de passe oublié — Union Sincère', RecoveryPage),
});
