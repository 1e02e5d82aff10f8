import { createFileRoute } from '@tanstack/react-router';
import { UpdatePasswordPage } from '#src/features/auth/update-password-page.tsx';
import { UpdatePasswordSearchSchema } from '#src/lib/search-schemas.ts';

export const Route = createFileRoute('/_auth/connexion/update-password')({
  validateSearch: UpdatePasswordSearchSchema,
  head: () => ({ meta: [{ title: 'Nouveau mot de passe — Union Sincère' }] }),
  component: UpdatePasswordPage,
});
