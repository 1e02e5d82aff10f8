import { api, send } from '#src/lib/api-client.ts';

/** The agency's access journal (decision 206): every staff read of members' data, for the administration. */
export interface JournalFilters {
  du?: string | undefined;
  au?: string | undefined;
  equipe?: string | undefined;
  quoi?: string | undefined;
  page?: string | undefined;
}

function cleaned(filters: JournalFilters): Record<string, string> {
  return Object.fromEntries(Object.entries(filters).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
}

export const getAccessJournal = (filters: JournalFilters) => send(api.dashboard['access-journal'].$get({ query: cleaned(filters) }));

/** The CSV export of the same filters (a download the browser follows with its cookie). */
export function accessJournalExportHref(filters: JournalFilters): string {
  const { page: _page, ...rest } = filters;
  const query = new URLSearchParams(cleaned(rest)).toString();
  return `/api/v1/dashboard/access-journal/export${query ? `?${query}` : ''}`;
}

export const setStaffRole = (id: string, role: 'administration' | 'conseil') =>
  send(api.dashboard.staff[':id'].role.$put({ param: { id }, json: { role } }));
