/**
 * The leads inbox's stored codes and their French words (decision 108: nothing shows a code
 * without its label; decision 112). Kinds of lead, follow-up statuses, and the history's fields.
 */

export const leadKinds = ['pre_subscription', 'contact'] as const;
export type LeadKind = (typeof leadKinds)[number];

export const leadStatuses = ['nouveau', 'contacte', 'converti', 'sans_suite'] as const;
export type LeadStatus = (typeof leadStatuses)[number];

export const leadKindLabels: Record<LeadKind, string> = {
  pre_subscription: 'Pré-inscription',
  contact: 'Message de contact',
};

export const leadStatusLabels: Record<LeadStatus, string> = {
  nouveau: 'Nouveau',
  contacte: 'Contacté',
  converti: 'Converti',
  sans_suite: 'Sans suite',
};

export const leadFields = ['status', 'assignee', 'follow_up', 'note', 'answer'] as const;
export type LeadField = (typeof leadFields)[number];

/** The history's verbs: « <qui> a <verbe> ». */
export const leadFieldLabels: Record<LeadField, string> = {
  status: 'a changé le statut',
  assignee: 'a changé la personne en charge',
  follow_up: 'a changé la date de relance',
  note: 'a ajouté une note',
  answer: 'a répondu par e-mail',
};

/** What a pre-registration is about, in the inbox's « Objet » (it has no subject of its own). */
export const PRE_REGISTRATION_SUBJECT = 'Pré-inscription sur le site';

/** What a lead is about: the contact form's subject as chosen, or the pre-registration's form. */
export function leadSubject(lead: { kind: LeadKind; subject?: string | null }): string {
  return lead.kind === 'contact' ? lead.subject?.trim() || 'Sans objet' : PRE_REGISTRATION_SUBJECT;
}

/** Where an answer's mail stands, read from the outbox (`mail_outbox.status`), in words. */
export const answerDeliveryLabels = {
  sent: 'Envoyé',
  pending: 'En cours d’envoi',
  retrying: 'Échec de l’envoi, nouvel essai automatique',
  failed: 'Échec de l’envoi : l’adresse n’a pas pu être jointe',
  dropped: 'Non envoyé',
} as const;
export type AnswerDelivery = keyof typeof answerDeliveryLabels;
