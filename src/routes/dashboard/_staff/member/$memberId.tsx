import { createFileRoute } from '@tanstack/react-router';
import { DashboardMemberPage } from '#src/features/dashboard/member-page.tsx';
import { MEMBER_TAB_IDS, type MemberTab } from '#src/features/dashboard/member-tab-ids.ts';
import { checkedSearch } from '#src/lib/checked-search.tsx';
import { titled } from '#src/lib/document-title.tsx';
import { oneOf } from '#src/lib/search-params.ts';

/** `?onglet=notes` opens that tab of the file (decision 209); anything else opens « Profil ». Checked in the page's chunk (decision 220). */
const checkMemberSearch = (search: Record<string, unknown>): { onglet?: MemberTab } => ({
  onglet: oneOf(search.onglet, MEMBER_TAB_IDS),
});

export const Route = createFileRoute('/dashboard/_staff/member/$memberId')({
  validateSearch: (search: Record<string, unknown>) => search as { onglet?: MemberTab },
  component: titled('Fiche membre — Union Sincère', checkedSearch(checkMemberSearch, DashboardMemberPage)),
});
