import { createFileRoute } from '@tanstack/react-router';
import { ProfilPage } from '#src/features/onboarding/profil-page.tsx';
import { stepGuard } from '#src/features/onboarding/step-guard.ts';

/** Onboarding step "profil": only the member's current step opens, any other redirects to it. */
export const Route = createFileRoute('/mon-compte/inscription/profil')({
  beforeLoad: stepGuard('profil'),
  head: () => ({ meta: [{ title: 'Vos informations personnelles — Union Sincère' }] }),
  component: ProfilPage,
});
