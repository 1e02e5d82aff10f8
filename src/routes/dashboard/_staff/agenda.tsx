import { createFileRoute } from '@tanstack/react-router';
import { AgendaPage } from '#src/features/dashboard/agenda-page.tsx';
import { checkedSearch } from '#src/lib/checked-search.tsx';
import { titled } from '#src/lib/document-title.tsx';
import { matching, oneOf } from '#src/lib/search-params.ts';

interface AgendaSearch {
  vue?: 'jour' | 'semaine';
  jour?: string;
}

/** `?vue=jour|semaine&jour=AAAA-MM-JJ` (default: this week, in Paris time); checked in the page's chunk (decision 220). */
const checkAgendaSearch = (search: Record<string, unknown>): AgendaSearch => ({
  vue: oneOf(search.vue, ['jour', 'semaine'] as const),
  jour: matching(search.jour, /^\d{4}-\d{2}-\d{2}$/),
});

export const Route = createFileRoute('/dashboard/_staff/agenda')({
  validateSearch: (search: Record<string, unknown>) => search as AgendaSearch,
  component: titled('Agenda — Union Sincère', checkedSearch(checkAgendaSearch, AgendaPage)),
});
