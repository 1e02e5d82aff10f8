import * as v from 'valibot';
import { type Actor, createActor, type ActorOptions, type SnapshotFrom, transition } from 'xstate';
import { type IntroductionContext, introductionContextSchema, sides } from '#machines/introductions/context.ts';
import { type IntroductionEvent, type IntroductionMachine, introductionMachine } from '#machines/introductions/introduction.machine.ts';
import { type IntroductionStateKey, stateLabels } from '#machines/introductions/labels.ts';
import { instantMs } from '#machines/onboarding/instant.ts';

/**
 * Restoring the chart from what the BFF stores per introduction: the state key, the context and a
 * version (plus an append-only event log beside it). The BFF restores the snapshot, asks the chart
 * whether the event is allowed, and stores the new state, context and version + 1 with the log row
 * in one transaction (optimistic: the update names the version it read); a refused event answers
 * 409 with the current state.
 */

export type IntroductionSnapshot = SnapshotFrom<IntroductionMachine>;

export const stateKeys = Object.keys(stateLabels) as IntroductionStateKey[];

/** The atomic states: what a stored row's `state` may hold. */
export const storedStateKeys = stateKeys.filter((key) => !stateKeys.some((other) => other.startsWith(`${key}.`)));

export interface StoredIntroduction {
  state: IntroductionStateKey;
  context: IntroductionContext;
  version: number;
}

export const storedIntroductionSchema = v.strictObject({
  state: v.picklist(storedStateKeys),
  context: introductionContextSchema,
  version: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

/** `proposee.acceptee-par-un` ⇄ `{ proposee: 'acceptee-par-un' }`. */
export function stateValueOfKey(key: IntroductionStateKey): string | Record<string, string> {
  const [top = key, sub] = key.split('.');
  return sub === undefined ? top : { [top]: sub };
}

export function stateKeyOf(value: IntroductionSnapshot['value']): IntroductionStateKey {
  if (typeof value === 'string') return value as IntroductionStateKey;
  const [top, sub] = Object.entries(value)[0] ?? ['', ''];
  return `${top}.${String(sub)}` as IntroductionStateKey;
}

const bothAccepted = (c: IntroductionContext) => c.answers.a.status === 'accepted' && c.answers.b.status === 'accepted';
const afterAcceptance: readonly string[] = ['acceptee', 'rencontre-planifiee', 'retours', 'poursuivie', 'fiancailles'];

/**
 * What the context must hold in a state: the chart keeps these true, and a stored row that breaks
 * one is refused at restore rather than acted upon. Returns the broken rules (empty when none).
 */
export function inconsistencies(state: IntroductionStateKey, c: IntroductionContext): string[] {
  const problems: string[] = [];
  const top = state.split('.')[0] ?? state;
  for (const side of sides) {
    for (const item of ['photos', 'contact'] as const) {
      const shown = c.disclosures[side][item];
      if (shown === null) continue;
      // Photos and contact details go out only once both accepted, each with its consent given before.
      if (!bothAccepted(c)) problems.push(`${item} of ${side} disclosed without both acceptances`);
      const consent = c.consents[side][item];
      if (consent === null || instantMs(consent) > instantMs(shown)) problems.push(`${item} of ${side} disclosed without prior consent`);
    }
    const summary = c.disclosures[side].summary;
    const summaryConsent = c.consents[side].summary;
    if (summary !== null && (summaryConsent === null || instantMs(summaryConsent) > instantMs(summary))) {
      problems.push(`summary of ${side} disclosed without prior consent`);
    }
  }
  const answered = sides.filter((side) => c.answers[side].status !== 'pending');
  if (state === 'proposee.attente-des-reponses' && answered.length > 0) problems.push('an answer is recorded while none is expected');
  if (state === 'proposee.acceptee-par-un' && !(answered.length === 1 && sides.some((s) => c.answers[s].status === 'accepted'))) {
    problems.push('acceptee-par-un needs exactly one acceptance');
  }
  if (top === 'proposee' && sides.some((s) => c.disclosures[s].photos !== null || c.disclosures[s].contact !== null)) {
    problems.push('photos or contact disclosed while proposed');
  }
  if (afterAcceptance.includes(top) && !bothAccepted(c)) problems.push(`${top} needs both acceptances`);
  if (afterAcceptance.includes(top) && sides.some((s) => c.disclosures[s].contact === null))
    problems.push(`${top} needs the contacts released`);
  if (top === 'declinee' && !sides.some((s) => c.answers[s].status === 'declined')) problems.push('declinee needs a decline');
  if (top === 'expiree' && c.expiredAt === null) problems.push('expiree needs its instant');
  if (top === 'close' && c.closedAt === null) problems.push('close needs its instant');
  if (c.ended !== null && top !== 'close' && top !== 'fiancailles') problems.push(`${top} cannot have been ended by the agency`);
  if (top === 'rencontre-planifiee' && c.meeting === null) problems.push('rencontre-planifiee needs a meeting');
  if (['retours', 'poursuivie', 'fiancailles'].includes(top) && c.meetingHeldAt === null) problems.push(`${top} needs the meeting held`);
  if (top === 'fiancailles' && !sides.every((s) => c.feedback[s]?.outcome === 'fiances')) problems.push('fiancailles needs both engaged');
  return problems;
}

/** A snapshot of the chart in the stored state, with the stored context. Throws on an inconsistent row. */
export function restoreSnapshot(stored: Pick<StoredIntroduction, 'state' | 'context'>): IntroductionSnapshot {
  const problems = inconsistencies(stored.state, stored.context);
  if (problems.length > 0) throw new Error(`Stored introduction ${stored.context.id} is inconsistent: ${problems.join('; ')}`);
  return introductionMachine.resolveState({ value: stateValueOfKey(stored.state), context: stored.context });
}

/** An actor (not started) that resumes from the stored row. Call `.start()` to run it. */
export function restoreActor(
  stored: Pick<StoredIntroduction, 'state' | 'context'>,
  options: Pick<ActorOptions<IntroductionMachine>, 'id' | 'systemId' | 'inspect' | 'logger'> = {},
): Actor<IntroductionMachine> {
  const snapshot = restoreSnapshot(stored);
  const { history: _history, lastEventAt, ...rest } = stored.context;
  // `input` is required by the types; the snapshot wins over it.
  const input = { id: rest.id, members: rest.members, summaryConsentAt: rest.summaryConsentAt, proposedAt: instantMs(lastEventAt) };
  return createActor(introductionMachine, { ...options, input, snapshot });
}

/** What the BFF stores for a snapshot. */
export function storedOf(snapshot: IntroductionSnapshot, version: number): StoredIntroduction {
  return { state: stateKeyOf(snapshot.value), context: snapshot.context, version };
}

export type EventDecision =
  | { allowed: true; stored: StoredIntroduction; snapshot: IntroductionSnapshot }
  | { allowed: false; state: IntroductionStateKey };

/**
 * What the BFF asks the chart for one event (validated body + actor from the session + server
 * clock): restored from the stored row, is the event allowed; if so the row to store (version + 1).
 */
export function decideEvent(stored: StoredIntroduction, event: IntroductionEvent): EventDecision {
  const snapshot = restoreSnapshot(stored);
  if (!snapshot.can(event)) return { allowed: false, state: stored.state };
  const [next] = transition(introductionMachine, snapshot, event);
  return { allowed: true, stored: storedOf(next, stored.version + 1), snapshot: next };
}
