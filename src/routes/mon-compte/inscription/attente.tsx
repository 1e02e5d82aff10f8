import { createFileRoute } from '@tanstack/react-router';
import { WaitingPage } from '#src/features/onboarding/waiting-page.tsx';
import { stepGuard } from '#src/lib/route-guards.ts';
import { titled } from '#src/lib/document-title.tsx';

/** Onboarding step "attente": only the member's current step opens, any other redirects to it. */
export const Route = createFileRoute('/mon-compte/inscription/attente')({
  beforeLoad: stepGuard('attente'),
  component: titled('Délai légal — Union Sincère', WaitingPage),
});
