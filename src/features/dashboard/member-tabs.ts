/**
 * The tabs of a member's file (issue 63 point 2, decision 209), in order. The address's
 * `?onglet=` names the open one, so that a link opens a tab; the ids alone are in member-tab-ids.ts.
 */
import type { MemberTab } from '#src/features/dashboard/member-tab-ids.ts';

export const MEMBER_TABS: readonly { id: MemberTab; label: string }[] = [
  { id: 'profil', label: 'Profil' },
  { id: 'mises-en-relation', label: 'Mises en relation' },
  { id: 'messages', label: 'Messages' },
  { id: 'contrat', label: 'Contrat et paiements' },
  { id: 'notes', label: 'Notes' },
  { id: 'historique', label: 'Historique' },
  { id: 'acces', label: 'Accès' },
];

/**
 * The tab of a card an older link names by its anchor (« Aujourd’hui » links to `#rights-title`…):
 * the link opens the tab that holds the card, then scrolls to it.
 */
const TAB_OF_ANCHOR: Readonly<Record<string, MemberTab>> = {
  'actions-title': 'profil',
  'profile-title': 'profil',
  'meetings-title': 'profil',
  'rights-title': 'contrat',
  'billing-title': 'contrat',
  'follow-up-title': 'notes',
  'log-title': 'historique',
};

/** The tab to open: the address's, else the one its anchor's card is in, else « Profil ». */
export function openTab(asked: MemberTab | undefined, hash: string): MemberTab {
  if (asked) return asked;
  const anchor = decodeURIComponent(hash.replace(/^#/, ''));
  return Object.hasOwn(TAB_OF_ANCHOR, anchor) ? (TAB_OF_ANCHOR[anchor] ?? 'profil') : 'profil';
}
