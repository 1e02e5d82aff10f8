import { genderLabels, prayerPracticeLabels, regionLabels, stateLabel } from '#machines/onboarding/labels.ts';

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
  counsellor: 'conseiller·ère',
  gender: 'sexe',
  ageMin: 'âge minimum',
  ageMax: 'âge maximum',
  region: 'région',
  practice: 'pratique',
  limit: 'nombre',
};

/** The member list's coded values in words (decision 210): sex, region, practice, stage, order. */
const VALUES: Record<string, Record<string, string>> = {
  gender: genderLabels,
  region: regionLabels,
  practice: prayerPracticeLabels,
  counsellor: { aucun: 'sans conseiller·ère' },
  dir: { asc: 'croissant', desc: 'décroissant' },
  sort: {
    created: 'inscription',
    updated: 'dernière activité',
    email: 'e-mail',
    name: 'nom',
    age: 'âge',
    stage: 'étape',
    counsellor: 'conseiller·ère',
  },
};

function valueText(key: string, value: string): string {
  const words = VALUES[key];
  if (words && Object.hasOwn(words, value)) return words[value] as string;
  if (key === 'step' && /^[a-z-]+$/.test(value)) return stateLabel(value);
  return value;
}

export function journalFiltersText(detail: string | null): string {
  if (!detail) return '—';
  const parts: string[] = [];
  for (const [key, value] of new URLSearchParams(detail)) {
    parts.push(`${NAMES[key] ?? key}\u00a0: ${valueText(key, value)}`);
  }
  return parts.length === 0 ? '—' : parts.join(' · ');
}
