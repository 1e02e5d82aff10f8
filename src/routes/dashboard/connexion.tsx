import { createFileRoute } from '@tanstack/react-router';
import { StaffSignInPage } from '#src/features/dashboard/staff-sign-in-page.tsx';
import { RedirectSearchSchema } from '#src/lib/search-schemas.ts';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/dashboard/connexion')({
  validateSearch: RedirectSearchSchema,
  component: titled('Connexion de l’équipe — Union Sincère', StaffSignInPage),
});
