/**
 * The nine steps of the onboarding, in order: alone in this module so that a route's search
 * schema (the dashboard's step filter, in every page's first load) does not pull in the rest of
 * steps.ts, which the member area loads with its own chunks.
 */
export const stepIds = [
  'profil',
  'questionnaire-profil',
  'formules',
  'informations-et-tarifs',
  'prendre-un-rendez-vous',
  'attente-entretien-personnalise',
  'attente-contrat',
  'frais-de-dossier',
  'attente',
] as const;
export type StepId = (typeof stepIds)[number];
