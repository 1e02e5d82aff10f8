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

export const leadFields = ['status', 'assignee', 'follow_up', 'note'] as const;
export type LeadField = (typeof leadFields)[number];

/** The history's verbs: « <qui> a <verbe> ». */
export const leadFieldLabels: Record<LeadField, string> = {
  status: 'a changé le statut',
  assignee: 'a changé la personne en charge',
  follow_up: 'a changé la date de relance',
  note: 'a ajouté une note',
};
