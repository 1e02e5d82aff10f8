import type { AnyStateNode } from 'xstate';
import { onboardingMachine } from '#machines/onboarding/onboarding.machine.ts';
import { stateShortLabel } from '#machines/onboarding/labels.ts';
import { steps } from '#machines/onboarding/steps.ts';

/**
 * The onboarding chart as the member page draws it, read from the machine definition itself
 * (`onboardingMachine.root`): every state in document order with its sub-states and the events
 * leaving it. Nothing here is a second copy of the chart; the French labels come from the one label
 * table (machines/onboarding/labels.ts).
 */

export interface ChartTransition {
  event: string;
  /** Dotted keys of the targets (e.g. 'attente-contrat'); empty for a self-transition. */
  targets: string[];
  guarded: boolean;
}

export interface ChartNode {
  /** Dotted key, as the API's `state` (e.g. 'attente-contrat.signature'). */
  key: string;
  label: string;
  /** 1-9 for the wizard's steps. */
  number: number | null;
  children: ChartNode[];
  transitions: ChartTransition[];
}

const keyOf = (node: AnyStateNode) => node.path.join('.');

function transitionsOf(node: AnyStateNode): ChartTransition[] {
  const out: ChartTransition[] = [];
  for (const [event, definitions] of node.transitions) {
    for (const definition of definitions) {
      out.push({ event, targets: (definition.target ?? []).map(keyOf), guarded: definition.guard !== undefined });
    }
  }
  for (const definition of node.always ?? []) {
    out.push({ event: 'DELAY_OVER', targets: (definition.target ?? []).map(keyOf), guarded: definition.guard !== undefined });
  }
  return out;
}

function toNode(node: AnyStateNode): ChartNode {
  const key = keyOf(node);
  const step = steps.find((s) => s.id === key);
  return {
    key,
    label: stateShortLabel(key) ?? 'Étape inconnue',
    number: step?.number ?? null,
    children: Object.values(node.states).map(toNode),
    transitions: transitionsOf(node),
  };
}

/** The top-level states of the chart, in the order they are declared (the wizard's order). */
export const chartOutline: readonly ChartNode[] = Object.values(onboardingMachine.root.states).map(toNode);

/** Transitions declared on the root (the staff reset, the ban, time ticks), which apply in every state. */
export const rootTransitions: readonly ChartTransition[] = transitionsOf(onboardingMachine.root).filter((t) => t.event !== 'TICK');
