import { createFileRoute, Outlet } from '@tanstack/react-router';
import { requireStaff } from '#src/lib/route-guards.ts';

/** Guard `dashboard-auth` (pathless): staff at aal2 for every dashboard page but `/dashboard/connexion`. */
export const Route = createFileRoute('/dashboard/_staff')({
  beforeLoad: requireStaff,
  component: Outlet,
});
