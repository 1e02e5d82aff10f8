import {
  contractEndStates,
  type OnboardingStateValue,
  pathOf,
  type StepId,
  type StepInfo,
  stepIds,
  stepOf,
  steps,
  type TopState,
} from '#machines/onboarding/steps.ts';

/** `'attente-contrat.signature'` → `{ 'attente-contrat': 'signature' }`; null when unreadable. */
export function parseStateKey(key: string | null | undefined): OnboardingStateValue | null {
  if (!key) return null;
  const [top, sub] = key.split('.', 2) as [string, string | undefined];
  const known = [...stepIds, 'membre-actif', 'resiliation-demandee', ...contractEndStates, 'desactive'] as readonly string[];
  if (!known.includes(top)) return null;
  return (sub ? { [top]: sub } : top) as OnboardingStateValue;
}

export function topOf(key: string | null | undefined): TopState | null {
  return (key?.split('.', 1)[0] as TopState | undefined) ?? null;
}

/** The substate part of a dotted key (`'attente-contrat.signature'` → `'signature'`). */
export function subOf(key: string | null | undefined): string | null {
  const parts = key?.split('.') ?? [];
  return parts[1] ?? null;
}

/** The path the member belongs on, or null when the state is unknown (staff). */
export function currentPathOf(key: string | null | undefined): string | null {
  const value = parseStateKey(key);
  return value ? pathOf(value) : null;
}

export function currentStepOf(key: string | null | undefined): StepInfo | null {
  const value = parseStateKey(key);
  return value ? stepOf(value) : null;
}

export function stepInfo(id: StepId): StepInfo {
  return steps.find((s) => s.id === id) as StepInfo;
}
