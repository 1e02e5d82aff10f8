import { createFileRoute } from '@tanstack/react-router';
import { StaffSignInPage } from '#src/features/dashboard/staff-sign-in-page.tsx';
import { RedirectSearchSchema } from '#src/lib/search-schemas.ts';

export const Route = createFileRoute('/dashboard/connexion')({
  validateSearch: RedirectSearchSchema,
  head: () => ({ meta: [{ title: 'Connexion de l’équipe — Union Sincère' }] }),
  component: StaffSignInPage,
});
