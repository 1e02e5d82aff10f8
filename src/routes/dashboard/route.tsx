import { createFileRoute } from '@tanstack/react-router';
import { DashboardLayout } from '#src/features/layout/dashboard-layout.tsx';

/** Layout "dashboard": the staff shell. Not guarded itself (`/dashboard/connexion` is public). */
export const Route = createFileRoute('/dashboard')({
  head: () => ({ meta: [{ name: 'robots', content: 'noindex' }] }),
  component: DashboardLayout,
});
