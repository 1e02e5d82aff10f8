import { createFileRoute } from '@tanstack/react-router';
import { DashboardLayout } from '#src/features/layout/dashboard-layout.tsx';

/**
 * Layout "dashboard": the staff shell. Not guarded itself (`/dashboard/connexion` is public). An
 * unknown `/dashboard/…` path reaches the root's not-found page (`notFoundMode: 'root'`), which
 * shows the back office's « Page introuvable » in this layout (issue 63).
 */
export const Route = createFileRoute('/dashboard')({
  head: () => ({ meta: [{ name: 'robots', content: 'noindex' }] }),
  component: DashboardLayout,
});
