import { covering, planLabels } from '#machines/onboarding/labels.ts';

/**
 * The chart's events and the update contexts in French (decision 108, split from labels.ts by
 * decision 215): each event as an action, each context as the sentence of the history, and who
 * did it. Checked against update-contexts.ts in labels.test.ts like the other tables.
 */
/** Events that are not update contexts: the ban and its lifting, time passing, a delay's end. */
export type OtherEventType = 'DISABLE' | 'ENABLE' | 'TICK' | 'DELAY_OVER';

/** Each chart event as an action (the chart drawing of the member page). */
export const eventLabels = covering<OtherEventType>()({
  SAVE_PROFILE: 'Enregistrer le profil',
  SAVE_QUESTIONNAIRE: 'Enregistrer le questionnaire',
  MARK_PERSONAL_INFO: 'Confirmer ou corriger les informations',
  SELECT_PLAN: 'Choisir une formule',
  RESET_PLAN: 'Changer de formule',
  APPLY_COUPON: 'Appliquer le code avantage',
  PAY_FILE_FEE: 'Payer les frais de dossier',
  ACKNOWLEDGE_PRE_CONTRACT: 'Lire les informations précontractuelles',
  SELECT_MEETING_DATE: 'Choisir un créneau',
  RESERVE_MEETING: 'Confirmer ou abandonner le rendez-vous',
  CANCEL_MEETING: 'Annuler le rendez-vous',
  RECORD_ONBOARDING_MEETING: 'Valider l’entretien personnalisé (ou le noter manqué)',
  SUBMIT_CONTRACT_FORM: 'Remplir le formulaire du contrat',
  SIGN_CONTRACT: 'Signer le contrat',
  PAY_SUBSCRIPTION: 'Payer l’abonnement',
  RECORD_MATCHMAKING_MEETING: 'Valider l’entretien de rapprochement',
  RESET_ONBOARDING: 'Réinitialiser l’inscription',
  RENOUNCE_CONTRACT: 'Renoncer au contrat (7 jours)',
  WITHDRAW_CONTRACT: 'Se rétracter (14 jours)',
  RENEW_CONTRACT: 'Choisir une nouvelle formule',
  REQUEST_TERMINATION: 'Demander la résiliation pour motif légitime',
  RECORD_TERMINATION_LETTER: 'Enregistrer une demande de résiliation reçue par courrier',
  ACCEPT_TERMINATION: 'Accepter la résiliation',
  REFUSE_TERMINATION: 'Refuser la résiliation',
  DISABLE: 'Désactiver le compte',
  ENABLE: 'Réactiver le compte',
  TICK: 'Temps qui passe',
  DELAY_OVER: 'Fin du délai',
  // Not chart events: « Mon profil » rows of the event log (decision 123).
  EDIT_ANSWERS: 'Modifier ses réponses',
  REQUEST_CHANGE: 'Demander une modification',
  APPLY_CHANGE_REQUEST: 'Appliquer une demande de modification',
  DECLINE_CHANGE_REQUEST: 'Refuser une demande de modification',
});

export function eventLabel(type: string): string {
  return Object.hasOwn(eventLabels, type) ? (eventLabels[type] ?? 'Action inconnue') : 'Action inconnue';
}

type Sentence = string | { yes: string; no: string };

/**
 * What happened, as the history says it, per update context and for the ban's row (`POST /auth/ban`
 * is not an update context); `yes`/`no` for the contexts whose outcome is a boolean.
 */
export const contextSentences = {
  profil: 'Informations personnelles enregistrées',
  questionnaire: 'Questionnaire de recherche enregistré',
  form_per_inf: {
    yes: 'Informations personnelles et questionnaire confirmés',
    no: 'Retour aux informations personnelles pour les corriger',
  },
  sel_plan: 'Formule choisie',
  sel_plan_res: 'Choix de formule annulé',
  coupon: 'Code avantage appliqué aux frais de dossier',
  app: 'Frais de dossier payés',
  pre_contract_ok: 'Informations précontractuelles lues et acceptées',
  onb_meet: 'Créneau d’entretien choisi',
  onb_meet_resa: { yes: 'Rendez-vous d’entretien confirmé', no: 'Rendez-vous abandonné avant confirmation' },
  onb_meet_cancel: 'Rendez-vous d’entretien annulé',
  onb_meet_ok: { yes: 'Entretien personnalisé validé', no: 'Entretien personnalisé noté comme manqué' },
  contractForm: 'Formulaire du contrat rempli',
  sub_date: 'Contrat signé',
  sub: 'Abonnement payé',
  meeting_mm: 'Entretien de rapprochement effectué : le membre est actif',
  lmnop: 'Inscription réinitialisée',
  renounce: 'Renonciation au contrat (délai de 7 jours)',
  withdraw: 'Rétractation (délai de 14 jours)',
  renew: 'Nouveau contrat demandé : choix d’une formule',
  terminate: 'Résiliation pour motif légitime demandée',
  terminate_letter: 'Demande de résiliation reçue par courrier, enregistrée par l’équipe',
  terminate_ok: 'Résiliation pour motif légitime acceptée',
  terminate_no: 'Résiliation pour motif légitime refusée',
  ban: { yes: 'Compte désactivé', no: 'Compte réactivé' },
  // Staff's follow-up (decision 124): `ASSIGN_COUNSELLOR` (yes) or `UNASSIGN_COUNSELLOR` (no).
  counsellor: { yes: 'Suivi confié à un membre de l’équipe', no: 'Suivi sans conseiller attitré' },
  // « Mon profil » (decision 123): logged without moving the chart.
  profil_edit: 'Informations personnelles modifiées depuis « Mon profil »',
  questionnaire_edit: 'Questionnaire de recherche modifié depuis « Mon profil »',
  change_request: 'Demande de modification envoyée à l’équipe',
  change_request_applied: 'Demande de modification appliquée',
  change_request_declined: 'Demande de modification refusée',
  // Issue 60 (decision 182): the daily ceiling of the contract's signing codes, reached.
  signature_code_cap: 'Plafond quotidien des codes de signature atteint : le membre doit contacter l’agence',
  // Issue 60 (decision 188): the daily ceilings of the account's six-digit codes, reached.
  recovery_code_cap: 'Plafond quotidien des codes de réinitialisation du mot de passe atteint : le membre doit contacter l’agence',
  signup_code_cap: 'Plafond quotidien des codes de confirmation d’inscription atteint : la personne doit contacter l’agence',
  invite_code_cap: 'Plafond quotidien des codes d’invitation atteint : la personne doit contacter l’agence',
  email_change_code_cap: 'Plafond quotidien des codes de changement d’adresse e-mail atteint : le membre doit contacter l’agence',
  reauthentication_code_cap: 'Plafond quotidien des codes de confirmation d’identité atteint : le membre doit contacter l’agence',
} as const satisfies Readonly<Record<string, Sentence>>;

export interface LoggedEvent {
  context: string;
  event: string;
  /** The payload's boolean (`status`, `completed`; for the ban, `disable`), when it has one. */
  outcome: boolean | null;
  /** The chosen plan (`sel_plan`). */
  planId: string | null;
  /** The staff member now in charge (`counsellor`), as named when assigned. */
  counsellorName?: string | null;
}

/** One event of the log as a French sentence, without actor and date: 'Entretien personnalisé validé'. */
export function eventSentence(event: LoggedEvent): string {
  if (!Object.hasOwn(contextSentences, event.context)) return 'Événement inconnu';
  const sentence: Sentence = contextSentences[event.context as keyof typeof contextSentences];
  if (typeof sentence !== 'string') {
    if (event.context === 'counsellor') {
      if (event.event === 'UNASSIGN_COUNSELLOR') return sentence.no;
      return event.counsellorName ? `Suivi confié à ${event.counsellorName}` : sentence.yes;
    }
    const outcome = event.context === 'ban' ? event.event !== 'ENABLE' : event.outcome;
    return outcome === false ? sentence.no : sentence.yes;
  }
  if (event.context === 'sel_plan' && event.planId !== null && Object.hasOwn(planLabels, event.planId)) {
    return `${sentence} : ${planLabels[event.planId]}`;
  }
  return sentence;
}

/** Who did it: 'par Nadia', 'par l’équipe', 'par le membre', 'automatiquement'. */
export function actorPhrase(role: string, staffName: string | null): string {
  if (role === 'staff') return staffName ? `par ${staffName}` : 'par l’équipe';
  if (role === 'member') return 'par le membre';
  return 'automatiquement';
}
