import type { OfferId, PlanId } from '#machines/onboarding/plans.ts';
import type { Gender } from '#machines/onboarding/record.ts';
import type { BookingSubstate, ContractSubstate, TopState, WaitingSubstate } from '#machines/onboarding/steps.ts';

/**
 * The one label table (decision 108): every stored code a person may read — answers, plans,
 * offers, payment states, chart states — has its French words here; chart events and update
 * contexts in event-labels.ts beside it (decision 215). The member's forms (src/features/onboarding), the contract's text, and the staff
 * dashboard all read them from this file; nothing shows a code without going through it.
 *
 * This file imports nothing that imports it: forms.ts builds its picklists from the choice tables
 * below, update-contexts.ts builds on forms.ts. The tables keyed by contexts and events are checked
 * against update-contexts.ts by the type checker in labels.test.ts, and at run time there too.
 */

/** A table whose keys must cover `K` (a missing one is a type error); other keys are allowed (retired codes). */
export function covering<K extends string>() {
  return <const T extends Record<K, string>>(table: T): T & Readonly<Record<string, string>> => table;
}

// ---------------------------------------------------------------------------
// Choices of the onboarding forms (value → French label, in the order the forms offer them)

export const maritalStatusLabels = {
  celibataire: 'Célibataire',
  divorce: 'Divorcé(e)',
  veuf: 'Veuf / veuve',
} as const;

/** The legitimate reasons to terminate a matrimonial agency contract (R224-2 Code de la consommation; decision 119). */
export const terminationReasonLabels = {
  demenagement: 'Déménagement',
  'changement-situation-matrimoniale': 'Changement de situation matrimoniale',
  'maladie-invalidite': 'Maladie ou invalidité grave',
  'autre-motif-grave': 'Autre motif grave',
} as const;

export const prayerPracticeLabels = {
  'cinq-prieres': 'Les cinq prières quotidiennes',
  reguliere: 'Régulière, avec quelques manques',
  occasionnelle: 'Occasionnelle',
  'en-apprentissage': 'En apprentissage',
} as const;

export const soughtPracticeLabels = { ...prayerPracticeLabels, indifferent: 'Peu importe' } as const;

export const regionLabels = {
  'auvergne-rhone-alpes': 'Auvergne-Rhône-Alpes',
  'bourgogne-franche-comte': 'Bourgogne-Franche-Comté',
  bretagne: 'Bretagne',
  'centre-val-de-loire': 'Centre-Val de Loire',
  corse: 'Corse',
  'grand-est': 'Grand Est',
  'hauts-de-france': 'Hauts-de-France',
  'ile-de-france': 'Île-de-France',
  normandie: 'Normandie',
  'nouvelle-aquitaine': 'Nouvelle-Aquitaine',
  occitanie: 'Occitanie',
  'pays-de-la-loire': 'Pays de la Loire',
  'provence-alpes-cote-d-azur': 'Provence-Alpes-Côte d’Azur',
  'outre-mer': 'Outre-mer',
  etranger: 'Étranger',
  indifferent: 'Peu importe',
} as const;

export const professionalSituationLabels = {
  'emploi-stable': 'Un emploi stable',
  'en-activite-ou-etudes': 'En activité ou en études',
  indifferent: 'Peu importe',
} as const;

export const genderLabels = covering<Gender>()({ homme: 'Homme', femme: 'Femme' });

/**
 * A named person's family situation, in the form of their gender (« Divorcée » for a woman): the
 * choice table above keeps « Divorcé(e) » for the questions, where nobody is named yet.
 */
export const genderedMaritalStatusLabels = {
  homme: { celibataire: 'Célibataire', divorce: 'Divorcé', veuf: 'Veuf' },
  femme: { celibataire: 'Célibataire', divorce: 'Divorcée', veuf: 'Veuve' },
} as const satisfies Record<Gender, Record<keyof typeof maritalStatusLabels, string>>;

export function maritalStatusLabelFor(status: keyof typeof maritalStatusLabels, gender: Gender | null | undefined): string {
  return gender ? genderedMaritalStatusLabels[gender][status] : maritalStatusLabels[status];
}

/** The member's wish for children (questionnaire, decision 193). */
export const wantsChildrenLabels = {
  oui: 'Oui',
  non: 'Non',
  'peut-etre': 'Je ne sais pas encore',
} as const;

/**
 * The richer matching profile (issue 62 point 8, decision 208). Languages spoken (several), level
 * of education, height: ordinary answers. The hijab, the beard and the school of thought reveal
 * religious practice (GDPR art. 9): asked and kept only under the explicit consent of step 1, as
 * the prayer practice is. No ethnic or national origin is ever asked (CNIL): nothing here says it.
 */
export const languageLabels = {
  francais: 'Français',
  arabe: 'Arabe',
  'arabe-dialectal': 'Arabe dialectal (darija…)',
  berbere: 'Berbère (tamazight, kabyle…)',
  anglais: 'Anglais',
  turc: 'Turc',
  ourdou: 'Ourdou',
  wolof: 'Wolof',
  comorien: 'Comorien',
  espagnol: 'Espagnol',
  allemand: 'Allemand',
  autre: 'Autre langue',
} as const;

export const educationLevelLabels = {
  'sans-diplome': 'Sans diplôme',
  'cap-bep': 'CAP ou BEP',
  bac: 'Baccalauréat',
  'bac-2': 'Bac + 2 (BTS, DUT…)',
  'bac-3': 'Bac + 3 (licence, BUT)',
  'bac-5': 'Bac + 5 (master, école d’ingénieur…)',
  doctorat: 'Doctorat',
} as const;

/** For a woman: whether she wears the hijab. */
export const hijabLabels = { oui: 'Oui', parfois: 'Parfois', non: 'Non' } as const;
/** For a man: whether he wears a beard. */
export const beardLabels = { oui: 'Oui', non: 'Non' } as const;
/** The school of thought (madhhab) followed. */
export const madhhabLabels = {
  hanafite: 'Hanafite',
  malikite: 'Malikite',
  chafiite: 'Chafiite',
  hanbalite: 'Hanbalite',
  'sans-preference': 'Sans préférence',
} as const;

/** The height a member may give, in centimetres (optional). */
export const HEIGHT_MIN_CM = 130;
export const HEIGHT_MAX_CM = 230;

export function heightText(cm: number): string {
  const metres = Math.floor(cm / 100);
  return `${metres},${String(cm % 100).padStart(2, '0')}\u00a0m`;
}

/** The height wished for the person sought (decision 212), or null when none was given. */
export function heightWishText(min: number | null | undefined, max: number | null | undefined): string | null {
  const hasMin = min !== null && min !== undefined;
  const hasMax = max !== null && max !== undefined;
  if (hasMin && hasMax) return `de ${heightText(min)} à ${heightText(max)}`;
  if (hasMin) return `au moins ${heightText(min)}`;
  if (hasMax) return `au plus ${heightText(max)}`;
  return null;
}

/**
 * The criteria of the questionnaire a member marks as indispensable or only wished (decision 193):
 * an indispensable one is never broken by a proposal, either way; a wished one ranks.
 */
export const requirableCriterionLabels = {
  age: 'Âge',
  region: 'Région',
  pratique: 'Pratique religieuse',
  'situation-familiale': 'Situation familiale',
  enfants: 'Enfants',
  'desir-enfants': 'Désir d’enfants',
  demenagement: 'Déménagement',
} as const;

export function yesNo(value: boolean): string {
  return value ? 'Oui' : 'Non';
}

// ---------------------------------------------------------------------------
// Plans, offers and payments

export const planLabels = covering<PlanId>()({
  plan_horizon_month: 'Horizon, 6 mois en 6 mensualités',
  plan_serenity_month: 'Sérénité, 12 mois en 12 mensualités',
  plan_horizon_year: 'Horizon, 6 mois réglés en une fois',
  plan_serenity_year: 'Sérénité, 12 mois réglés en une fois',
  plan_horizon_year_cachback: 'Horizon, 6 mois réglés en une fois (−10 %)',
  plan_serenity_year_cachback: 'Sérénité, 12 mois réglés en une fois (−10 %)',
});

export const offerLabels = covering<OfferId>()({ file_fee: 'Frais de dossier', ...planLabels });

/** Stripe Checkout Session `payment_status`. */
export const paymentStatusLabels = covering<'paid' | 'unpaid' | 'no_payment_required'>()({
  paid: 'Payé',
  unpaid: 'Non payé',
  no_payment_required: 'Payé (code avantage, 0 €)',
});

/** Stripe Checkout Session `status`. */
export const checkoutStatusLabels = covering<'open' | 'complete' | 'expired'>()({
  open: 'En cours',
  complete: 'Terminé',
  expired: 'Expiré',
});

/** An instalment of a monthly plan (decision 120). */
export const instalmentStatusLabels = covering<'payee' | 'a-venir' | 'echouee' | 'annulee' | 'remboursee'>()({
  payee: 'Payée',
  'a-venir': 'À venir',
  echouee: 'Échouée',
  annulee: 'Annulée',
  remboursee: 'Remboursée',
});

/** A refund (decision 118). */
export const refundStatusLabels = covering<'pending' | 'succeeded' | 'failed'>()({
  pending: 'En cours',
  succeeded: 'Effectué',
  failed: 'Échoué',
});

/** A line of the staff's billing view (decision 120): what it is, and where it stands. */
export const billingKindLabels = covering<'payment' | 'instalment' | 'refund'>()({
  payment: 'Paiement',
  instalment: 'Mensualité',
  refund: 'Remboursement',
});
export const billingStatusLabels = covering<
  'payee' | 'a-venir' | 'echouee' | 'annulee' | 'remboursee' | 'remboursement-en-cours' | 'rembourse' | 'remboursement-echoue'
>()({
  ...instalmentStatusLabels,
  'remboursement-en-cours': 'Remboursement en cours',
  rembourse: 'Remboursé',
  'remboursement-echoue': 'Remboursement échoué',
});

/** A booking of the scheduling service. */
export const bookingStatusLabels = covering<'active' | 'canceled'>()({ active: 'Confirmé', canceled: 'Annulé' });

/** The kinds of the staff agenda (machines/agenda/agenda.ts, decision 122). */
export const agendaKindLabels = covering<'entretien-personnalise' | 'entretien-matchmaking' | 'premiere-rencontre'>()({
  'entretien-personnalise': 'Entretien personnalisé',
  'entretien-matchmaking': 'Entretien de rapprochement',
  'premiere-rencontre': 'Première rencontre (mise en relation)',
});

/** `renouncedWithdrawalRight` of the record (L221-25). */
export function withdrawalChoiceLabel(value: boolean | null): string {
  if (value === null) return 'Pas encore choisi';
  return value ? 'Oui : commencer avant la fin du délai de 14 jours' : 'Non : attendre la fin du délai de 14 jours';
}

// ---------------------------------------------------------------------------
// Chart states (labels never depend on the order of the steps)

type StateKey =
  | TopState
  | `prendre-un-rendez-vous.${BookingSubstate}`
  | `attente-contrat.${ContractSubstate}`
  | `attente.${WaitingSubstate}`;

/** Top states and sub-states, each as a short phrase; a sub-state is shown after its parent. */
export const stateLabels = covering<StateKey>()({
  profil: 'Profil',
  'questionnaire-profil': 'Questionnaire',
  formules: 'Choix de la formule',
  'frais-de-dossier': 'Paiement (frais de dossier et abonnement)',
  'informations-et-tarifs': 'Informations et tarifs',
  'prendre-un-rendez-vous': 'Prise de rendez-vous',
  'prendre-un-rendez-vous.choix-creneau': 'Choix du créneau',
  'prendre-un-rendez-vous.confirmation': 'Confirmation du rendez-vous',
  'attente-entretien-personnalise': 'Entretien personnalisé',
  'attente-contrat': 'Contrat',
  'attente-contrat.formulaire-contrat': 'Formulaire du contrat',
  'attente-contrat.signature': 'Signature',
  'attente-contrat.delai-renonciation': 'Délai de 7 jours avant tout paiement',
  // Retired sub-state (decision 108), still named by older rows of the event log.
  'attente-contrat.paiement': 'Paiement de l’abonnement',
  attente: 'Délai légal',
  'attente.delai-retractation': 'Délai de rétractation de 14 jours',
  'attente.entretien-matchmaking': 'Entretien de rapprochement à tenir',
  'membre-actif': 'Membre actif',
  renonce: 'Contrat annulé (renonciation)',
  retracte: 'Contrat résilié (rétractation)',
  'contrat-termine': 'Contrat terminé',
  'resiliation-demandee': 'Résiliation demandée (motif légitime)',
  resilie: 'Contrat résilié (motif légitime)',
  desactive: 'Compte désactivé',
});

/** The short label of one state key (`attente-contrat.signature` → 'Signature'), or null when unknown. */
export function stateShortLabel(key: string): string | null {
  return Object.hasOwn(stateLabels, key) ? (stateLabels[key] ?? null) : null;
}

/** A state key as people read it: 'Contrat — Signature'; an unknown key reads 'Étape inconnue'. */
export function stateLabel(key: string): string {
  const [top = key, sub] = key.split('.');
  const topLabel = stateShortLabel(top);
  if (topLabel === null) return 'Étape inconnue';
  if (sub === undefined) return topLabel;
  return `${topLabel} — ${stateShortLabel(key) ?? 'sous-étape inconnue'}`;
}

// ---------------------------------------------------------------------------
// Fields of the stored answers, in a fixed, logical order

/** Identity, contact, situation, practice. */
export const profileFields = [
  { key: 'firstName', label: 'Prénom' },
  { key: 'lastName', label: 'Nom' },
  { key: 'birthDate', label: 'Date de naissance' },
  { key: 'phone', label: 'Téléphone' },
  { key: 'postcode', label: 'Code postal' },
  { key: 'city', label: 'Ville' },
  { key: 'maritalStatus', label: 'Situation familiale' },
  { key: 'childrenCount', label: 'Enfants' },
  { key: 'profession', label: 'Profession' },
  { key: 'educationLevel', label: 'Niveau d’études' },
  { key: 'languages', label: 'Langues parlées' },
  { key: 'heightCm', label: 'Taille' },
  { key: 'prayerPractice', label: 'Pratique de la prière' },
  { key: 'practiceDetails', label: 'Précisions sur la pratique' },
  { key: 'hijab', label: 'Port du voile' },
  { key: 'beard', label: 'Port de la barbe' },
  { key: 'madhhab', label: 'École juridique (madhhab)' },
  { key: 'sensitiveDataConsent', label: 'Consentement (données sensibles)' },
] as const;

/** The criteria sought. */
export const questionnaireFields = [
  { key: 'soughtAgeMin', label: 'Âge minimum' },
  { key: 'soughtAgeMax', label: 'Âge maximum' },
  { key: 'soughtRegions', label: 'Régions' },
  { key: 'soughtFamilySituations', label: 'Situations familiales acceptées' },
  { key: 'acceptsChildren', label: 'Accepte une personne ayant des enfants' },
  { key: 'soughtPractice', label: 'Pratique recherchée' },
  { key: 'soughtProfessionalSituation', label: 'Situation professionnelle recherchée' },
  { key: 'wantsChildren', label: 'Souhaite des enfants' },
  { key: 'readyToRelocate', label: 'Prêt ou prête à déménager' },
  { key: 'soughtHeightMin', label: 'Taille souhaitée, au moins' },
  { key: 'soughtHeightMax', label: 'Taille souhaitée, au plus' },
  { key: 'requiredCriteria', label: 'Critères indispensables' },
  { key: 'otherQualities', label: 'Autres qualités essentielles' },
] as const;

/** The two sections of « Mon profil » a member edits, or asks to change after signature (decision 123). */
export const answerSectionLabels = { profil: 'Informations personnelles', questionnaire: 'Questionnaire de recherche' } as const;

/** A change request's status (decision 123). */
export const changeRequestStatusLabels = { pending: 'En attente de l’équipe', applied: 'Appliquée', declined: 'Refusée' } as const;

/** The contract form (the `contractForm` flag itself is not shown). */
export const contractFields = [
  { key: 'fullName', label: 'Nom complet' },
  { key: 'address', label: 'Adresse' },
  { key: 'postcode', label: 'Code postal' },
  { key: 'city', label: 'Ville' },
  { key: 'signature', label: 'Signature' },
  { key: 'termsAccepted', label: 'Contrat et conditions acceptés' },
] as const;
