import { createFileRoute } from '@tanstack/react-router';
import { DashboardHomePage } from '#src/features/dashboard/dashboard-home-page.tsx';
import { DashboardSearchSchema } from '#src/features/dashboard/dashboard-search.ts';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/dashboard/_staff/')({
  validateSearch: DashboardSearchSchema,
  component: titled('Tableau de bord — Union Sincère', DashboardHomePage),
});
