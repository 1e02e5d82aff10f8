import { useSelector } from '@xstate/react';
import { createContext, type ReactNode, useContext, useEffect, useMemo } from 'react';
import * as v from 'valibot';
import type { Actor } from 'xstate';
import type { onboardingMachine } from '#machines/onboarding/onboarding.machine.ts';
import { onboardingRecordSchema } from '#machines/onboarding/record.ts';
import { type OnboardingSnapshot, restoreActor } from '#machines/onboarding/restore.ts';
import { stateKey } from '#machines/onboarding/steps.ts';
import { toMachineEvent } from '#machines/onboarding/record-changes.ts';
import type { UpdatePayload } from '#machines/onboarding/update-contexts.ts';
import { useOnboardingUpdate } from '#src/features/onboarding/use-onboarding-update.ts';
import { useSession } from '#src/lib/use-session.ts';

/**
 * The onboarding chart in the browser: the same machine the server runs (machines/onboarding),
 * restored from the member's record exactly as the server restores it. The server stays the
 * authority (it re-checks every event); in the browser the chart says what the member may do now
 * and lets time pass, so the legal periods end on screen without a reload.
 */
type ChartActor = Actor<typeof onboardingMachine>;
const ChartContext = createContext<ChartActor | undefined>(undefined);

/** How often the browser's chart is told the time (the 7-day and 14-day periods). */
const CHART_TICK_MS = 30_000;

export function OnboardingChartProvider({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const version = user?.version ?? 0;
  const onboarding = user?.onboarding;
  // Restored afresh for every record version (an accepted event), without remounting the screens.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the record changes exactly when its version does
  const actor = useMemo(() => {
    const record = v.safeParse(onboardingRecordSchema, onboarding);
    return record.success ? restoreActor(record.output, Date.now()).start() : undefined;
  }, [version, onboarding === undefined]);
  useEffect(
    () => () => {
      actor?.stop();
    },
    [actor],
  );

  return (
    <ChartContext.Provider value={actor}>
      <ChartClock actor={actor} serverState={user?.state ?? null} />
      {children}
    </ChartContext.Provider>
  );
}

/** Ticks the chart; when time moves the member on (e.g. payment opens), the wizard follows. */
function ChartClock({ actor, serverState }: { actor: ChartActor | undefined; serverState: string | null }) {
  const chartState = useSelector(actor, (snapshot) => (snapshot ? stateKey(snapshot.value) : null));
  const { goToCurrent } = useOnboardingUpdate();

  useEffect(() => {
    if (!actor) return;
    const timer = window.setInterval(() => actor.send({ type: 'TICK', now: Date.now() }), CHART_TICK_MS);
    return () => window.clearInterval(timer);
  }, [actor]);

  useEffect(() => {
    if (chartState && serverState && chartState !== serverState) void goToCurrent();
  }, [chartState, serverState, goToCurrent]);

  return null;
}

/** Reads the browser's chart (undefined while the member's record is not loaded). */
export function useChart<T>(selector: (snapshot: OnboardingSnapshot) => T): T | undefined {
  const actor = useContext(ChartContext);
  return useSelector(actor, (snapshot) => (snapshot ? selector(snapshot) : undefined));
}

/** Whether the chart allows this update now (a button for a refused event is not offered). */
export function useChartAllows(update: UpdatePayload): boolean {
  return useChart((snapshot) => snapshot.can(toMachineEvent(update, Date.now()))) ?? false;
}
