import { createFileRoute } from '@tanstack/react-router';
import { ProfilPage } from '#src/features/onboarding/profil-page.tsx';
import { stepGuard } from '#src/lib/route-guards.ts';
import { titled } from '#src/lib/document-title.tsx';
import { STEP_FRAMES } from '#src/features/onboarding/step-frames.ts';

/** Onboarding step "profil": only the member's current step opens, any other redirects to it. */
export const Route = createFileRoute('/mon-compte/inscription/profil')({
  beforeLoad: stepGuard('profil'),
  component: titled(`${STEP_FRAMES.profil.title} — Union Sincère`, ProfilPage),
});
