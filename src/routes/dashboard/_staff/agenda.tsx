import { createFileRoute } from '@tanstack/react-router';
import { AgendaPage } from '#src/features/dashboard/agenda-page.tsx';
import { titled } from '#src/lib/document-title.tsx';
import { matching, oneOf } from '#src/lib/search-params.ts';

/** `?vue=jour|semaine&jour=AAAA-MM-JJ` (default: this week, in Paris time). */
const SearchSchema = (search: Record<string, unknown>): { vue?: 'jour' | 'semaine'; jour?: string } => ({
  vue: oneOf(search.vue, ['jour', 'semaine'] as const),
  jour: matching(search.jour, /^\d{4}-\d{2}-\d{2}$/),
});

export const Route = createFileRoute('/dashboard/_staff/agenda')({
  validateSearch: SearchSchema,
  component: titled('Agenda — Union Sincère', AgendaPage),
});
