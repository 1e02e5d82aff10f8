import { createFileRoute } from '@tanstack/react-router';
import { DashboardHomePage } from '#src/features/dashboard/dashboard-home-page.tsx';
import { DashboardSearchSchema } from '#src/features/dashboard/dashboard-search.ts';

export const Route = createFileRoute('/dashboard/_staff/')({
  validateSearch: DashboardSearchSchema,
  head: () => ({ meta: [{ title: 'Tableau de bord — Union Sincère' }] }),
  component: DashboardHomePage,
});
