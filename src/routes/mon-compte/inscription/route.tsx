import { createFileRoute, Outlet } from '@tanstack/react-router';
import { OnboardingChartProvider } from '#src/features/onboarding/onboarding-chart.tsx';

/** The onboarding steps share one chart, restored from the member's record (machines/onboarding). */
export const Route = createFileRoute('/mon-compte/inscription')({
  component: function OnboardingLayout() {
    return (
      <OnboardingChartProvider>
        <Outlet />
      </OnboardingChartProvider>
    );
  },
});
