import type { StepId } from '#machines/onboarding/step-ids.ts';
import type { RouterContext } from '#src/lib/router-context.ts';

/**
 * The `beforeLoad` guards of the member and staff routes, as the route tree (in every page's first
 * load, public pages included) references them: each fetches its code when a guarded route is
 * entered (src/lib/guards.ts, src/features/onboarding/step-guard.ts), so that public pages do not
 * carry it (decision 115). The router awaits them as it awaits any `beforeLoad`.
 */
type GuardArgs = Parameters<typeof import('#src/lib/guards.ts').requireMember>[0];

const guards = () => import('#src/lib/guards.ts');
const stepGuards = () => import('#src/features/onboarding/step-guard.ts');

export const requireMember = async (args: GuardArgs) => (await guards()).requireMember(args);
export const requireStaff = async (args: GuardArgs) => (await guards()).requireStaff(args);
export const stepGuard = (id: StepId) => async (args: { context: RouterContext }) => (await stepGuards()).stepGuard(id)(args);
export const accountHomeGuard = async (args: { context: RouterContext }) => (await stepGuards()).accountHomeGuard(args);
export const onboardingIndexGuard = async (args: { context: RouterContext }) => (await stepGuards()).onboardingIndexGuard(args);
