import { createFileRoute } from '@tanstack/react-router';
import { DashboardMemberPage } from '#src/features/dashboard/member-page.tsx';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/dashboard/_staff/member/$memberId')({
  component: titled('Fiche membre — Union Sincère', DashboardMemberPage),
});
