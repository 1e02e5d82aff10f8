import { createFileRoute } from '@tanstack/react-router';
import { MeetingWaitPage } from '#src/features/onboarding/meeting-wait-page.tsx';
import { stepGuard } from '#src/lib/route-guards.ts';
import { titled } from '#src/lib/document-title.tsx';

/** Onboarding step "attente-entretien-personnalise": only the member's current step opens, any other redirects to it. */
export const Route = createFileRoute('/mon-compte/inscription/attente-entretien-personnalise')({
  beforeLoad: stepGuard('attente-entretien-personnalise'),
  component: titled('Votre entretien personnalisé — Union Sincère', MeetingWaitPage),
});
