import { createFileRoute } from '@tanstack/react-router';
import { AccountHomePage } from '#src/features/account/account-home-page.tsx';
import { accountHomeGuard } from '#src/lib/route-guards.ts';
import { titled } from '#src/lib/document-title.tsx';

/** `/mon-compte`: a member still onboarding goes to their current step; an active member's home. */
export const Route = createFileRoute('/mon-compte/')({
  beforeLoad: accountHomeGuard,
  component: titled('Mon compte — Union Sincère', AccountHomePage),
});
