import { createFileRoute } from '@tanstack/react-router';
import { SignInPage } from '#src/features/auth/sign-in-page.tsx';
import { RedirectSearchSchema } from '#src/lib/search-schemas.ts';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/_auth/connexion/')({
  validateSearch: RedirectSearchSchema,
  component: titled('Connexion — Union Sincère', SignInPage),
});
