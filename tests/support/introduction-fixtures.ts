import { getInitialSnapshot, transition } from 'xstate';
import type { Actor, IntroductionInput } from '#machines/introductions/context.ts';
import type { IntroductionEvent } from '#machines/introductions/events.ts';
import { introductionMachine } from '#machines/introductions/introduction.machine.ts';
import type { DeclineReason, EndCause, FeedbackOutcome, Side } from '#machines/introductions/labels.ts';
import type { IntroductionSnapshot } from '#machines/introductions/restore.ts';
import { DAY_MS, toIsoInstant } from '#machines/onboarding/instant.ts';

/** Test data for the introduction chart: a pair, its actors, and event builders. Used by tests only. */

export const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
export const HOUR_MS = 60 * 60 * 1000;
export { DAY_MS };

export const pairInput: IntroductionInput = {
  id: 'intro-0001',
  members: { a: 'membre-amina', b: 'membre-youssef' },
  proposedAt: T0,
  summaryConsentAt: { a: toIsoInstant(T0 - 30 * DAY_MS), b: toIsoInstant(T0 - 20 * DAY_MS) },
};

export const staff: Actor = { kind: 'staff' };
export const memberOf = (side: Side): Actor => ({ kind: 'member', side });

export const ev = {
  accept: (side: Side, at: number, actor: Actor = memberOf(side)): IntroductionEvent => ({ type: 'ACCEPT', side, actor, at }),
  decline: (side: Side, at: number, actor: Actor = memberOf(side), reason: DeclineReason = 'region'): IntroductionEvent => ({
    type: 'DECLINE',
    side,
    reason,
    comment: null,
    actor,
    at,
  }),
  feedback: (side: Side, outcome: FeedbackOutcome, at: number, actor: Actor = memberOf(side)): IntroductionEvent => ({
    type: 'FEEDBACK',
    side,
    outcome,
    reason: outcome === 'arreter' ? 'pas-de-feeling' : null,
    actor,
    at,
  }),
  plan: (at: number, meetingAt: number, actor: Actor = staff): IntroductionEvent => ({
    type: 'PLAN_MEETING',
    meetingAt: toIsoInstant(meetingAt),
    place: 'Agence de Lyon, salon du rez-de-chaussée',
    actor,
    at,
  }),
  held: (at: number, actor: Actor = staff): IntroductionEvent => ({ type: 'RECORD_MEETING_HELD', actor, at }),
  cancelMeeting: (at: number, actor: Actor = staff): IntroductionEvent => ({ type: 'CANCEL_MEETING', actor, at }),
  close: (at: number, note = 'Clôture demandée par l’équipe', actor: Actor = staff): IntroductionEvent => ({
    type: 'CLOSE',
    note,
    actor,
    at,
  }),
  reopen: (at: number, note = 'Les deux membres ont demandé à se revoir', actor: Actor = staff): IntroductionEvent => ({
    type: 'REOPEN',
    note,
    actor,
    at,
  }),
  expire: (at: number, actor: Actor = staff): IntroductionEvent => ({ type: 'EXPIRE', actor, at }),
  remind: (at: number, actor: Actor = staff): IntroductionEvent => ({ type: 'REMIND', actor, at }),
  end: (at: number, cause: EndCause = 'terme', party: Side = 'b', actor: Actor = staff): IntroductionEvent => ({
    type: 'END',
    cause,
    party,
    actor,
    at,
  }),
};

export function proposed(input: IntroductionInput = pairInput): IntroductionSnapshot {
  return getInitialSnapshot(introductionMachine, input);
}

export function step(snapshot: IntroductionSnapshot, event: IntroductionEvent): IntroductionSnapshot {
  return transition(introductionMachine, snapshot, event)[0];
}

/** Sends the events in order, each of which must be accepted. */
export function walk(...events: IntroductionEvent[]): IntroductionSnapshot {
  let snapshot = proposed();
  for (const event of events) {
    if (!snapshot.can(event)) throw new Error(`${event.type} refused in ${JSON.stringify(snapshot.value)}`);
    snapshot = step(snapshot, event);
  }
  return snapshot;
}

/** The meeting of the standard walk: planned on day 2 for day 4. */
export const MEETING_AT = T0 + 4 * DAY_MS;

export const walks = {
  oneAccepted: () => walk(ev.accept('a', T0 + HOUR_MS)),
  accepted: () => walk(ev.accept('a', T0 + HOUR_MS), ev.accept('b', T0 + DAY_MS)),
  planned: () => walk(ev.accept('a', T0 + HOUR_MS), ev.accept('b', T0 + DAY_MS), ev.plan(T0 + 2 * DAY_MS, MEETING_AT)),
  feedbackPhase: () =>
    walk(ev.accept('a', T0 + HOUR_MS), ev.accept('b', T0 + DAY_MS), ev.plan(T0 + 2 * DAY_MS, MEETING_AT), ev.held(MEETING_AT)),
  continued: () =>
    walk(
      ev.accept('a', T0 + HOUR_MS),
      ev.accept('b', T0 + DAY_MS),
      ev.plan(T0 + 2 * DAY_MS, MEETING_AT),
      ev.held(MEETING_AT),
      ev.feedback('a', 'continuer', MEETING_AT + DAY_MS),
      ev.feedback('b', 'continuer', MEETING_AT + DAY_MS),
    ),
  engaged: () =>
    walk(
      ev.accept('a', T0 + HOUR_MS),
      ev.accept('b', T0 + DAY_MS),
      ev.plan(T0 + 2 * DAY_MS, MEETING_AT),
      ev.held(MEETING_AT),
      ev.feedback('a', 'fiances', MEETING_AT + DAY_MS),
      ev.feedback('b', 'fiances', MEETING_AT + DAY_MS),
    ),
  declined: () => walk(ev.decline('b', T0 + HOUR_MS)),
  expired: () => walk(ev.expire(T0 + 7 * DAY_MS)),
  closed: () => walk(ev.close(T0 + HOUR_MS)),
};
