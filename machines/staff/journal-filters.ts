/**
 * The filters an agency-wide read asked (`access_log.detail`, a query string), as staff read them
 * in the « Journal des accès »: French names, never the parameters' codes.
 */
const NAMES: Record<string, string> = {
  q: 'recherche',
  page: 'page',
  perPage: 'par page',
  sort: 'tri',
  dir: 'ordre',
  step: 'étape',
  etape: 'étape',
  status: 'statut',
  kind: 'type',
  from: 'du',
  to: 'au',
  du: 'du',
  au: 'au',
  etat: 'état',
  scope: 'portée',
  memberId: 'membre',
  assignee: 'suivi par',
  equipe: 'membre de l’équipe',
  quoi: 'lecture',
  membre: 'membre',
  tag: 'étiquette',
  limit: 'nombre',
};

export function journalFiltersText(detail: string | null): string {
  if (!detail) return '—';
  const parts: string[] = [];
  for (const [key, value] of new URLSearchParams(detail)) {
    parts.push(`${NAMES[key] ?? key}\u00a0: ${value}`);
  }
  return parts.length === 0 ? '—' : parts.join(' · ');
}
