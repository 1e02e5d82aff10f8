import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { PreRegistrationPage } from '#src/features/public-site/pre-registration-page.tsx';

/** `?genre=femme|homme` preselects the gender (links of the two registration pages). */
const SearchSchema = v.object({ genre: v.fallback(v.optional(v.picklist(['femme', 'homme'])), undefined) });

export const Route = createFileRoute('/_default/formulaire-inscription')({
  validateSearch: SearchSchema,
  component: function PreRegistrationRoute() {
    const { genre } = Route.useSearch();
    return <PreRegistrationPage gender={genre} />;
  },
});
