import { createFileRoute } from '@tanstack/react-router';
import { WaitingPage } from '#src/features/onboarding/waiting-page.tsx';
import { stepGuard } from '#src/features/onboarding/step-guard.ts';

/** Onboarding step "attente": only the member's current step opens, any other redirects to it. */
export const Route = createFileRoute('/mon-compte/inscription/attente')({
  beforeLoad: stepGuard('attente'),
  head: () => ({ meta: [{ title: 'Délai légal — Union Sincère' }] }),
  component: WaitingPage,
});
