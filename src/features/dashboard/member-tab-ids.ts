/**
 * The ids of a member file's tabs (decision 209), alone: the route's `?onglet=` check reads them
 * (in the route's own chunk since decision 220, with the staff's shared chunk), while their labels
 * and anchors stay in the file's own chunk (`member-tabs.ts`).
 */
export const MEMBER_TAB_IDS = ['profil', 'mises-en-relation', 'messages', 'contrat', 'notes', 'historique', 'acces'] as const;

export type MemberTab = (typeof MEMBER_TAB_IDS)[number];
