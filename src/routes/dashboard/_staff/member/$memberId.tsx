import { createFileRoute } from '@tanstack/react-router';
import { DashboardMemberPage } from '#src/features/dashboard/member-page.tsx';
import { MEMBER_TAB_IDS, type MemberTab } from '#src/features/dashboard/member-tab-ids.ts';
import { titled } from '#src/lib/document-title.tsx';
import { oneOf } from '#src/lib/search-params.ts';

/** `?onglet=notes` opens that tab of the file (decision 209); anything else opens « Profil ». */
const SearchSchema = (search: Record<string, unknown>): { onglet?: MemberTab } => ({
  onglet: oneOf(search.onglet, MEMBER_TAB_IDS),
});

export const Route = createFileRoute('/dashboard/_staff/member/$memberId')({
  validateSearch: SearchSchema,
  component: titled('Fiche membre — Union Sincère', DashboardMemberPage),
});
