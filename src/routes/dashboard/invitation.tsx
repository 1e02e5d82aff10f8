import { createFileRoute } from '@tanstack/react-router';
import { StaffInvitationPage } from '#src/features/dashboard/staff-invitation-page.tsx';
import { titled } from '#src/lib/document-title.tsx';

/**
 * The link of a colleague's invitation mail (decision 126): public, like `/dashboard/connexion`.
 * Its `?token=` is parsed by the page, not here: the route tree is in every public page's first load.
 */
export const Route = createFileRoute('/dashboard/invitation')({
  component: titled('Rejoindre l’équipe — Union Sincère', StaffInvitationPage),
});
