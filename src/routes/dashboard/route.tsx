import { createFileRoute } from '@tanstack/react-router';
import { DashboardNotFound } from '#src/features/dashboard/dashboard-not-found.tsx';
import { DashboardLayout } from '#src/features/layout/dashboard-layout.tsx';

/**
 * Layout "dashboard": the staff shell. Not guarded itself (`/dashboard/connexion` is public). An
 * unknown `/dashboard/…` path shows the back office's « Page introuvable » in this layout (issue 63).
 */
export const Route = createFileRoute('/dashboard')({
  head: () => ({ meta: [{ name: 'robots', content: 'noindex' }] }),
  component: DashboardLayout,
  notFoundComponent: DashboardNotFound,
});
