/**
 * The vocabulary of the onboarding chart's states, shared by the SPA (which screen,
 * progress "step N of 9") and the BFF (409 answers name the current state).
 */

import { type StepId, stepIds } from '#machines/onboarding/step-ids.ts';

export { type StepId, stepIds };

export type TopState = StepId | 'membre-actif' | 'resiliation-demandee' | 'desactive' | ContractEndState;

/** The states where the contract is over (decision 118): renounced, withdrawn, or its term reached. */
export const contractEndStates = ['renonce', 'retracte', 'contrat-termine', 'resilie'] as const;
export type ContractEndState = (typeof contractEndStates)[number];

/** Every top-level state of the chart, in the order of the funnel (the member list's « Étape » sort follows it). */
export const TOP_STATES = [
  ...stepIds,
  'membre-actif',
  'resiliation-demandee',
  ...contractEndStates,
  'desactive',
] as const satisfies readonly TopState[];

/** Whether a chart state (`top` or `top.sub`) is one where the contract is over: the screens then promise nothing to come. */
export function isContractEndState(state: string | null | undefined): boolean {
  const top = state?.split('.', 1)[0] ?? '';
  return (contractEndStates as readonly string[]).includes(top);
}

export type BookingSubstate = 'choix-creneau' | 'confirmation';
export type ContractSubstate = 'formulaire-contrat' | 'signature' | 'delai-renonciation';
export type WaitingSubstate = 'delai-retractation' | 'entretien-matchmaking';

/** Every settled state value of the chart. */
export type OnboardingStateValue =
  | 'profil'
  | 'questionnaire-profil'
  | 'formules'
  | 'informations-et-tarifs'
  | { 'prendre-un-rendez-vous': BookingSubstate }
  | 'attente-entretien-personnalise'
  | { 'attente-contrat': ContractSubstate }
  | 'frais-de-dossier'
  | { attente: WaitingSubstate }
  | 'membre-actif'
  | 'resiliation-demandee'
  | ContractEndState
  | 'desactive';

export interface StepInfo {
  id: StepId;
  /** 1 to 9. */
  number: number;
  title: string;
  path: `/mon-compte/inscription/${StepId}`;
}

const titles: Record<StepId, string> = {
  profil: 'Mon profil',
  'questionnaire-profil': 'Questionnaire',
  formules: 'Formules',
  'informations-et-tarifs': 'Informations et tarifs',
  'prendre-un-rendez-vous': 'Prendre rendez-vous',
  'attente-entretien-personnalise': 'Entretien personnalisé',
  'attente-contrat': 'Contrat',
  'frais-de-dossier': 'Paiement',
  attente: 'Délai légal',
};

export const steps: readonly StepInfo[] = stepIds.map((id, index) => ({
  id,
  number: index + 1,
  title: titles[id],
  path: `/mon-compte/inscription/${id}`,
}));

/** The top-level state of a state value: `{ attente: 'delai-retractation' }` → 'attente'. */
export function topStateOf(value: OnboardingStateValue): TopState {
  return typeof value === 'string' ? value : (Object.keys(value)[0] as TopState);
}

/** The wizard step of a state value, or null for an active or disabled member. */
export function stepOf(value: OnboardingStateValue): StepInfo | null {
  const top = topStateOf(value);
  return steps.find((s) => s.id === top) ?? null;
}

/** Where the member belongs: their step's screen, `/mon-compte` once active, `/` when disabled. */
export function pathOf(value: OnboardingStateValue): string {
  const top = topStateOf(value);
  if (top === 'membre-actif' || top === 'resiliation-demandee' || (contractEndStates as readonly string[]).includes(top))
    return '/mon-compte';
  if (top === 'desactive') return '/';
  return `/mon-compte/inscription/${top}`;
}

/** Dotted form of a state value, e.g. 'attente-contrat.signature' (logs, 409 bodies). */
export function stateKey(value: OnboardingStateValue): string {
  if (typeof value === 'string') return value;
  const [top, sub] = Object.entries(value)[0] as [string, string];
  return `${top}.${sub}`;
}
