import type { TopState } from '#machines/onboarding/steps.ts';

/**
 * The states in which each of the agency's scheduled mails still says something true (decision
 * 176). The mail job asks this for the member's state at the moment it sends, not the one the mail
 * was planned for: a member who renounced is never asked to pay, a member who withdrew or whose
 * contract ended is never told of a next step. A contract's end states (renonce, retracte, resilie,
 * contrat-termine) receive only the mails of that state: their confirmation (sent by the event
 * itself) and, for the term, the term-ended mail.
 */
export const scheduledMailStates = {
  /** « Rappel : votre entretien personnalisé a lieu demain ». */
  'agency-meeting-reminder': ['prendre-un-rendez-vous', 'attente-entretien-personnalise'],
  /** « le paiement est ouvert — Régler mon inscription »: only while there is something to pay. */
  'agency-renunciation-period-over': ['attente-contrat', 'frais-de-dossier'],
  /** « la prochaine étape est votre entretien de rapprochement ». */
  'agency-withdrawal-period-over': ['attente'],
  /** « Vous êtes désormais membre ». */
  'agency-active-member': ['membre-actif'],
  /** « Votre contrat prend fin le … » (30 and 7 days before). */
  'agency-term-ending': ['membre-actif'],
  /** « Votre contrat a pris fin ». */
  'agency-term-ended': ['contrat-termine'],
} as const satisfies Record<string, readonly TopState[]>;

export type ScheduledMailKind = keyof typeof scheduledMailStates;

/** Whether the scheduled mail `kind` still applies to a member in `top` now; a kind not in the table never does. */
export function scheduledMailApplies(kind: string, top: TopState): boolean {
  const states: Readonly<Record<string, readonly TopState[]>> = scheduledMailStates;
  return Object.hasOwn(states, kind) && (states[kind] ?? []).includes(top);
}
