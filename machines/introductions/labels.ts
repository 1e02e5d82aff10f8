/**
 * The label table of the introduction chart (decisions §9): every code of an introduction that a
 * person may read — states, events, sides, reasons, outcomes, disclosures — has its French words
 * here, and the timeline of a member or of the staff is written by `timelineSentence`.
 *
 * This file is the leaf of `machines/introductions/`: it imports nothing, and the code lists the
 * other files use (decline reasons, outcomes, state keys, event types) are the keys of its tables,
 * so a code without a label cannot exist.
 */
import { frenchDateFormat } from '#machines/french/dates.ts';

export const sideLabels = { a: 'Membre A', b: 'Membre B' } as const;
export type Side = keyof typeof sideLabels;

/** Why a member declines a proposal, or stops after the first meeting (a short list, decided with staff). */
export const declineReasonLabels = {
  age: 'L’âge ne correspond pas',
  region: 'La région est trop éloignée',
  pratique: 'La pratique religieuse ne correspond pas',
  'situation-familiale': 'La situation familiale ne correspond pas',
  'pas-de-feeling': 'Pas d’affinité',
  autre: 'Autre raison',
} as const;
export type DeclineReason = keyof typeof declineReasonLabels;

/** A member's feedback after the chaperoned first meeting. */
export const feedbackOutcomeLabels = {
  continuer: 'Continuer à se connaître',
  arreter: 'Arrêter',
  fiances: 'Nous sommes fiancés',
} as const;
export type FeedbackOutcome = keyof typeof feedbackOutcomeLabels;

/** What may be shown of a member to the other person (L224-93), each with its consent. */
export const disclosureLabels = {
  summary: 'Résumé anonymisé du profil',
  photos: 'Photos',
  contact: 'Coordonnées',
} as const;
export type Disclosure = keyof typeof disclosureLabels;

/** Every state of the chart (`parent.child` for a sub-state), as staff and members read it. */
export const stateLabels = {
  proposee: 'Proposée',
  'proposee.attente-des-reponses': 'En attente des deux réponses',
  'proposee.acceptee-par-un': 'Acceptée par l’un, en attente de l’autre',
  declinee: 'Déclinée',
  expiree: 'Expirée sans réponse',
  acceptee: 'Acceptée par les deux : coordonnées transmises',
  'rencontre-planifiee': 'Première rencontre planifiée',
  retours: 'En attente des retours après la rencontre',
  poursuivie: 'Relation poursuivie',
  close: 'Close',
  fiancailles: 'Fiançailles : recherches en pause',
} as const;
export type IntroductionStateKey = keyof typeof stateLabels;

/** Every event of the chart, as an action. */
export const eventLabels = {
  ACCEPT: 'Accepter la proposition',
  DECLINE: 'Décliner la proposition',
  FEEDBACK: 'Donner son retour après la rencontre',
  PLAN_MEETING: 'Planifier la première rencontre',
  RECORD_MEETING_HELD: 'Noter que la rencontre a eu lieu',
  CANCEL_MEETING: 'Annuler la rencontre',
  CLOSE: 'Clore la mise en relation',
  REOPEN: 'Rouvrir la mise en relation',
  EXPIRE: 'Constater l’expiration du délai de réponse',
  REMIND: 'Envoyer le rappel',
  END: 'Mettre fin à la mise en relation (contrat ou compte terminé)',
} as const;
export type IntroductionEventType = keyof typeof eventLabels;

/**
 * Why the agency itself ends an introduction (event END, decision 194): a member's contract ended
 * (renounced, withdrawn, terminated, at its term, or no longer the one the introduction was made
 * under), their account was erased or disabled, or they withdrew the consent that covers their
 * photos and summary. Staff read these words; the member reads `endReasonForMember`.
 */
export const endCauseLabels = {
  renonciation: 'Contrat renoncé dans les 7 jours',
  retractation: 'Contrat rétracté dans les 14 jours',
  resiliation: 'Contrat résilié pour motif légitime',
  terme: 'Contrat arrivé à son terme',
  'fin-de-contrat': 'Contrat terminé',
  'compte-efface': 'Compte effacé',
  'compte-desactive': 'Compte désactivé',
  'consentement-retire': 'Consentement aux données sensibles retiré',
} as const;
export type EndCause = keyof typeof endCauseLabels;

/** The end's cause as the member whose contract or account it is reads it (the other person is told no reason). */
const ownEndReasons: Readonly<Record<EndCause, string>> = {
  renonciation: 'vous avez exercé votre droit de renonciation',
  retractation: 'vous avez exercé votre droit de rétractation',
  resiliation: 'votre contrat a été résilié',
  terme: 'votre contrat est arrivé à son terme',
  'fin-de-contrat': 'votre contrat a pris fin',
  'compte-efface': 'votre compte a été effacé',
  'compte-desactive': 'votre compte a été désactivé',
  'consentement-retire': 'vous avez retiré votre consentement au traitement de vos données sensibles',
};

/**
 * Why an introduction ended, for the member reading it: their own cause in words, nothing about the
 * other person's (whose contract, account or consent is theirs alone), null when none is told.
 */
export function endReasonForMember(cause: EndCause, party: Side, viewer: Side): string | null {
  return party === viewer ? ownEndReasons[cause] : null;
}

export function stateLabel(key: string): string {
  return Object.hasOwn(stateLabels, key) ? stateLabels[key as IntroductionStateKey] : 'État inconnu';
}

export function eventLabel(type: string): string {
  return Object.hasOwn(eventLabels, type) ? eventLabels[type as IntroductionEventType] : 'Action inconnue';
}

export function declineReasonLabel(reason: string): string {
  return Object.hasOwn(declineReasonLabels, reason) ? declineReasonLabels[reason as DeclineReason] : 'Motif inconnu';
}

/**
 * One row of the introduction's event log, as stored (the fields a sentence needs). The log holds
 * codes and dates only, never free text (a decline's comment, the meeting's place, a staff note):
 * it is append-only, and free text stays in the introduction's context, where an erasure can reach
 * it (decision 117).
 */
export interface TimelineEvent {
  type: string;
  actor: { kind: 'staff' } | { kind: 'member'; side: Side };
  side?: Side;
  reason?: DeclineReason | null;
  outcome?: FeedbackOutcome;
  meetingAt?: string;
  /** END: why, and whose contract or account. */
  cause?: EndCause;
  party?: Side;
}

/** The members' first names, when the reader may see them; otherwise 'Membre A' / 'Membre B'. */
export type SideNames = Readonly<Record<Side, string>>;

const FRENCH_DATE = frenchDateFormat({ dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' });

function when(iso: string | undefined): string {
  const ms = iso === undefined ? Number.NaN : Date.parse(iso);
  return Number.isFinite(ms) ? FRENCH_DATE.format(ms) : 'une date inconnue';
}

/** One event of the log as a French sentence, without its date: 'Amina a accepté la proposition'. */
export function timelineSentence(event: TimelineEvent, names: SideNames = sideLabels): string {
  const who = event.side === undefined ? 'Un membre' : names[event.side];
  switch (event.type) {
    case 'ACCEPT':
      return `${who} a accepté la proposition`;
    case 'DECLINE': {
      const reason = event.reason ? ` (motif : ${declineReasonLabel(event.reason).toLowerCase()})` : '';
      return `${who} a décliné la proposition${reason}`;
    }
    case 'FEEDBACK': {
      if (event.outcome === 'arreter') {
        const reason = event.reason ? ` (motif : ${declineReasonLabel(event.reason).toLowerCase()})` : '';
        return `${who} souhaite arrêter${reason}`;
      }
      if (event.outcome === 'fiances') return `${who} annonce des fiançailles`;
      return `${who} souhaite continuer à se connaître`;
    }
    case 'PLAN_MEETING':
      return `L’équipe a planifié la première rencontre le ${when(event.meetingAt)}`;
    case 'RECORD_MEETING_HELD':
      return 'L’équipe a noté que la première rencontre a eu lieu';
    case 'CANCEL_MEETING':
      return 'L’équipe a annulé la première rencontre';
    case 'CLOSE':
      return 'L’équipe a clos la mise en relation';
    case 'REOPEN':
      return 'L’équipe a rouvert la mise en relation';
    case 'EXPIRE':
      return 'Proposition expirée : le délai de réponse est passé';
    case 'REMIND':
      return 'Rappel envoyé à qui n’a pas encore répondu';
    case 'END':
      return event.cause && event.party
        ? `La mise en relation a pris fin : ${endCauseLabels[event.cause].toLowerCase()} (${names[event.party]})`
        : 'La mise en relation a pris fin';
    default:
      return 'Événement inconnu';
  }
}
