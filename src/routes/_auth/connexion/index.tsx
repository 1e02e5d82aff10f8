import { createFileRoute } from '@tanstack/react-router';
import { SignInPage } from '#src/features/auth/sign-in-page.tsx';
import { RedirectSearchSchema } from '#src/lib/search-schemas.ts';

export const Route = createFileRoute('/_auth/connexion/')({
  validateSearch: RedirectSearchSchema,
  head: () => ({ meta: [{ title: 'Connexion — Union Sincère' }] }),
  component: SignInPage,
});
