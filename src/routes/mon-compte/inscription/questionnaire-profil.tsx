import { createFileRoute } from '@tanstack/react-router';
import { QuestionnairePage } from '#src/features/onboarding/questionnaire-page.tsx';
import { stepGuard } from '#src/lib/route-guards.ts';
import { titled } from '#src/lib/document-title.tsx';
import { STEP_FRAMES } from '#src/features/onboarding/step-frames.ts';

/** Onboarding step "questionnaire-profil": only the member's current step opens, any other redirects to it. */
export const Route = createFileRoute('/mon-compte/inscription/questionnaire-profil')({
  beforeLoad: stepGuard('questionnaire-profil'),
  component: titled(`${STEP_FRAMES['questionnaire-profil'].title} — Union Sincère`, QuestionnairePage),
});
