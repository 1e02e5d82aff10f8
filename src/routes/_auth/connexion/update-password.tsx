import { createFileRoute } from '@tanstack/react-router';
import { UpdatePasswordPage } from '#src/features/auth/update-password-page.tsx';
import { UpdatePasswordSearchSchema } from '#src/lib/search-schemas.ts';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/_auth/connexion/update-password')({
  validateSearch: UpdatePasswordSearchSchema,
  component: titled('Nouveau mot de passe — Union Sincère', UpdatePasswordPage),
});
