/**
 * Staff roles (decision 206), shared by the server (which enforces them on every staff route) and
 * the dashboard (which shows and offers only what the role may do).
 */
export const STAFF_ROLES = ['administration', 'conseil'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** The role's name as the team page and the journal show it. */
export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  administration: 'Administration',
  conseil: 'Conseiller·ère',
};

/** What each role may do, in one sentence (team page, invitation form). */
export const STAFF_ROLE_SCOPES: Record<StaffRole, string> = {
  administration: 'Tous les membres, la facturation, l’équipe, les réglages et le journal des accès.',
  conseil: 'Les membres qui lui sont confiés et les contacts que personne n’a encore pris ; ni facturation ni équipe.',
};

/** A staff row's role: an unknown or missing value gives the narrower one, never more rights. */
export function staffRoleOf(value: unknown): StaffRole {
  return value === 'administration' ? 'administration' : 'conseil';
}
