import { createFileRoute } from '@tanstack/react-router';
import { DashboardHomePage } from '#src/features/dashboard/dashboard-home-page.tsx';
import type { DashboardSearch } from '#src/features/dashboard/dashboard-search.ts';
import { titled } from '#src/lib/document-title.tsx';

/**
 * The list's search parameters are declared here and parsed by the page itself
 * (`DashboardSearchSchema` in dashboard-home-page.tsx, loaded with it): the route tree is in every
 * public page's first load (decision 115), the staff list's parser need not be.
 */
export const Route = createFileRoute('/dashboard/_staff/')({
  validateSearch: (search: Record<string, unknown>) => search as DashboardSearch,
  component: titled('Tableau de bord — Union Sincère', DashboardHomePage),
});
