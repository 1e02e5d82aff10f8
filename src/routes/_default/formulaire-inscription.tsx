import { createFileRoute } from '@tanstack/react-router';
import { PreRegistrationPage } from '#src/features/public-site/pre-registration-page.tsx';
import { oneOf } from '#src/lib/search-params.ts';

/** `?genre=femme|homme` preselects the gender (links of the two registration pages). */
const SearchSchema = (search: Record<string, unknown>): { genre?: 'femme' | 'homme' } => ({
  genre: oneOf(search.genre, ['femme', 'homme'] as const),
});

export const Route = createFileRoute('/_default/formulaire-inscription')({
  validateSearch: SearchSchema,
  component: function PreRegistrationRoute() {
    const { genre } = Route.useSearch();
    return <PreRegistrationPage gender={genre} />;
  },
});
