/**
 * The French words of the guardian's codes (decision 117). A leaf (no import), so that the SPA's
 * pages can show them without loading the validation of `guardian.ts` (valibot, libphonenumber).
 */

export const guardianRelationLabels = {
  pere: 'Père',
  frere: 'Frère',
  oncle: 'Oncle',
  imam: 'Imam',
  'autre-proche': 'Autre proche',
} as const;
export type GuardianRelation = keyof typeof guardianRelationLabels;

/** What the guardian receives: a copy of each proposal, the contact details at mutual acceptance, or nothing. */
export const guardianReceivesLabels = {
  'copie-propositions': 'Une copie de chaque proposition',
  coordonnees: 'Les coordonnées à l’acceptation mutuelle',
  rien: 'Rien',
} as const;
export type GuardianReceives = keyof typeof guardianReceivesLabels;

export const GUARDIAN_NAME_MAX = 80;

/**
 * How the other member of a mutually accepted introduction reaches the member (decision 196): their
 * own contact, or through their walī only (the walī's name and phone, never the member's own).
 */
export const contactViaLabels = {
  moi: 'Mes propres coordonnées',
  wali: 'Uniquement par mon walī',
} as const;
export type ContactVia = keyof typeof contactViaLabels;
