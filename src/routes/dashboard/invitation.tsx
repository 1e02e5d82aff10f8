import { createFileRoute } from '@tanstack/react-router';
import { StaffInvitationPage } from '#src/features/dashboard/staff-invitation-page.tsx';
import { titled } from '#src/lib/document-title.tsx';
import { StaffInvitationSearchSchema } from '#src/lib/search-schemas.ts';

/** The link of a colleague's invitation mail (decision 126): public, like `/dashboard/connexion`. */
export const Route = createFileRoute('/dashboard/invitation')({
  validateSearch: StaffInvitationSearchSchema,
  component: titled('Rejoindre l’équipe — Union Sincère', StaffInvitationPage),
});
