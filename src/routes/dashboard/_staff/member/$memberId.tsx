import { createFileRoute } from '@tanstack/react-router';
import { DashboardMemberPage } from '#src/features/dashboard/member-page.tsx';

export const Route = createFileRoute('/dashboard/_staff/member/$memberId')({
  head: () => ({ meta: [{ title: 'Fiche membre — Union Sincère' }] }),
  component: DashboardMemberPage,
});
