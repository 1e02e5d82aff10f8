import { describe, expect, it } from 'vitest';
import { type AnyStateNode, type AnyTransitionDefinition, createActor, transition } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { type Actor, sides } from '#machines/introductions/context.ts';
import { eventTypes, type IntroductionEvent, memberEventTypes, staffOnlyEventTypes } from '#machines/introductions/events.ts';
import { DAY_MS, ev, HOUR_MS, memberOf, pairInput, staff } from '#tests/support/introduction-fixtures.ts';
import { clockOf, introductionMachine } from '#machines/introductions/introduction.machine.ts';
import { feedbackOutcomeLabels, type FeedbackOutcome, stateLabel, stateLabels } from '#machines/introductions/labels.ts';
import {
  decideEvent,
  type IntroductionSnapshot,
  inconsistencies,
  restoreSnapshot,
  type StoredIntroduction,
  stateKeyOf,
  storedIntroductionSchema,
  storedOf,
} from '#machines/introductions/restore.ts';
import { deadlineOf, isOpen, reminderDueAt } from '#machines/introductions/rules.ts';
import { goodStanding, sharingOf } from '#machines/introductions/sharing.ts';
import { instantMs } from '#machines/onboarding/instant.ts';
import * as v from 'valibot';

/**
 * Model-based test. The model is the chart; the system under test is what the BFF does with a
 * stored row (`decideEvent`: restore from state + context + version, ask, apply). In every state
 * the model offers every event type from every kind of actor (staff, member a, member b; for each
 * side), at the instants where time matters (day 5, the deadline, the meeting's start, each minus
 * one millisecond). Every reachable state and every transition is checked against the properties
 * the agency must be able to rely on.
 */

const actors: Actor[] = [staff, memberOf('a'), memberOf('b')];
const outcomes = Object.keys(feedbackOutcomeLabels) as FeedbackOutcome[];

/** Instants of interest after the snapshot's clock: now, and each boundary (and the millisecond before it). */
function instantsOf(snapshot: IntroductionSnapshot): { now: number; boundaries: number[] } {
  const c = snapshot.context;
  const now = instantMs(c.lastEventAt);
  const marks = [reminderDueAt(c.proposedAt), deadlineOf(c.proposedAt)];
  if (c.meeting !== null) marks.push(instantMs(c.meeting.at));
  const boundaries = marks.flatMap((m) => [m - 1, m]).filter((t) => t > now);
  return { now, boundaries: [...new Set(boundaries)] };
}

function modelEvents(snapshot: IntroductionSnapshot): IntroductionEvent[] {
  const { now, boundaries } = instantsOf(snapshot);
  const events: IntroductionEvent[] = [];
  for (const actor of actors) {
    for (const side of sides) {
      events.push(ev.accept(side, now + HOUR_MS, actor), ev.decline(side, now + HOUR_MS, actor));
      for (const outcome of outcomes) events.push(ev.feedback(side, outcome, now + HOUR_MS, actor));
    }
    events.push(
      ev.plan(now + HOUR_MS, now + 2 * DAY_MS, actor),
      ev.plan(now + HOUR_MS, now + HOUR_MS, actor),
      ev.held(now + HOUR_MS, actor),
      ev.cancelMeeting(now + HOUR_MS, actor),
      ev.close(now + HOUR_MS, 'Note de l’équipe', actor),
      ev.close(now + HOUR_MS, '   ', actor),
      ev.expire(now + HOUR_MS, actor),
      ev.remind(now + HOUR_MS, actor),
      ev.end(now + HOUR_MS, 'terme', 'a', actor),
    );
    events.push(ev.reopen(now + HOUR_MS, 'Réouverture', actor), ev.reopen(now + HOUR_MS, '', actor));
    for (const at of boundaries) {
      events.push(ev.remind(at, actor), ev.expire(at, actor), ev.held(at, actor));
      for (const side of sides) events.push(ev.accept(side, at, actor), ev.decline(side, at, actor));
    }
  }
  return events;
}

/**
 * States are told apart by value, answers, reminder, meeting, feedback and round, and the clock
 * only by its phase (before day 5, before the deadline, after; before or after the meeting):
 * the chart's behaviour depends on nothing else, which keeps the graph finite.
 */
function serializeState(snapshot: IntroductionSnapshot): string {
  const c = snapshot.context;
  const now = instantMs(c.lastEventAt);
  return JSON.stringify({
    value: snapshot.value,
    answers: sides.map((s) => c.answers[s].status),
    phase: now < reminderDueAt(c.proposedAt) ? 'before-5' : now < deadlineOf(c.proposedAt) ? 'before-7' : 'after-7',
    reminded: c.remindedAt !== null,
    meeting: c.meeting === null ? null : now < instantMs(c.meeting.at) ? 'ahead' : 'started',
    held: c.meetingHeldAt !== null,
    feedback: sides.map((s) => c.feedback[s]?.outcome ?? null),
    ended: c.ended !== null,
    // A third round behaves as the second: counting rounds beyond that would only grow the graph.
    rounds: Math.min(c.history.length, 1),
  });
}

const model = createTestModel(introductionMachine, { events: modelEvents, serializeState, input: pairInput });
const adjacency = Object.values(model.getAdjacencyMap());
const shortestPaths = model.getShortestPaths({ allowDuplicatePaths: true });

type Edge = { state: IntroductionSnapshot; event: IntroductionEvent; next: IntroductionSnapshot };
/**
 * The graph offers each state only the event types it handles; the properties are checked on
 * every event of `modelEvents` in every reached state, handled there or not.
 */
const edges: Edge[] = adjacency.flatMap(({ state }) =>
  modelEvents(state).map((event) => ({ state, event, next: transition(introductionMachine, state, event)[0] })),
);

function allTransitions(node: AnyStateNode = introductionMachine.root): AnyTransitionDefinition[] {
  const own = [...node.transitions.values()].flat();
  return [...own, ...(node.always ?? []), ...Object.values(node.states).flatMap((child) => allTransitions(child))];
}

function atomicStateIds(node: AnyStateNode = introductionMachine.root): string[] {
  const children = Object.values(node.states);
  return children.length === 0 ? [node.id] : children.flatMap((child) => atomicStateIds(child));
}

function describeTransition(t: AnyTransitionDefinition): string {
  return `${t.source.id} --${t.eventType}--> ${t.target?.map((n) => n.id).join(',') ?? '(self)'}`;
}

/** Takes one event with a real actor, and returns the transitions it took. */
function takeStep(from: IntroductionSnapshot, event: IntroductionEvent) {
  const taken: AnyTransitionDefinition[] = [];
  const actor = createActor(introductionMachine, {
    snapshot: from,
    input: pairInput,
    inspect: (inspection) => {
      if (inspection.type === '@xstate.microstep') taken.push(...inspection._transitions);
    },
  });
  actor.start();
  actor.send(event);
  const next = actor.getSnapshot();
  actor.stop();
  return { next, taken };
}

const accepted = (edge: Edge) => edge.state.can(edge.event);
const isMemberEvent = (e: IntroductionEvent) => (memberEventTypes as string[]).includes(e.type);
const isStaffOnlyEvent = (e: IntroductionEvent) => (staffOnlyEventTypes as string[]).includes(e.type);

describe('introduction chart, model-based', () => {
  it('explores a graph large enough to mean something', () => {
    expect(adjacency.length).toBeGreaterThan(60);
    expect(edges.length).toBeGreaterThan(5000);
  });

  it('offers every event type of the chart, from every kind of actor', () => {
    const handled = new Set(allTransitions().map((t) => t.eventType));
    const offered = new Set(edges.map((e) => e.event.type));
    expect([...handled].sort()).toEqual([...offered].sort());
    expect([...offered].sort()).toEqual([...eventTypes].sort());
    for (const type of eventTypes) {
      const senders = new Set(edges.filter((e) => e.event.type === type).map((e) => JSON.stringify(e.event.actor)));
      expect(senders.size, type).toBe(3);
    }
  });

  it('reaches every atomic state, and every state key has a French label', () => {
    const reached = new Set(
      adjacency.flatMap(({ state }) => state._nodes.filter((n: AnyStateNode) => n.type === 'atomic').map((n: AnyStateNode) => n.id)),
    );
    expect([...reached].sort()).toEqual(atomicStateIds().sort());
    expect(atomicStateIds()).toHaveLength(10);
    for (const { state } of adjacency) {
      const key = stateKeyOf(state.value);
      expect(Object.hasOwn(stateLabels, key), key).toBe(true);
      expect(stateLabel(key.split('.')[0] ?? key)).not.toBe('État inconnu');
    }
  });

  it('takes every transition of the chart, and the stored row agrees with the chart on each edge', () => {
    const taken = new Set<AnyTransitionDefinition>();
    for (const edge of edges) {
      const { next, taken: steps } = takeStep(edge.state, edge.event);
      for (const t of steps) taken.add(t);
      expect(next.value).toEqual(edge.next.value);

      const stored = storedOf(edge.state, 3);
      const decision = decideEvent(stored, edge.event);
      expect(decision.allowed, `${serializeState(edge.state)} ${JSON.stringify(edge.event)}`).toBe(accepted(edge));
      if (decision.allowed) {
        expect(decision.stored).toEqual({ state: stateKeyOf(edge.next.value), context: edge.next.context, version: 4 });
      } else {
        expect(decision.state).toBe(stored.state);
      }
    }
    expect(
      allTransitions()
        .filter((t) => !taken.has(t))
        .map(describeTransition),
    ).toEqual([]);
    // Every edge restored and decided twice: about 20 s alone, more on a machine shared with other suites.
  }, 120_000);

  it('a refused event leaves state and context exactly as they were', () => {
    let refused = 0;
    for (const edge of edges) {
      if (accepted(edge)) continue;
      expect(edge.next.value).toEqual(edge.state.value);
      expect(edge.next.context).toEqual(edge.state.context);
      refused += 1;
    }
    expect(refused).toBeGreaterThan(edges.length / 2);
  });

  it('never shows photos or contact details unless both accepted, each after their own consent', () => {
    let released = 0;
    for (const { state } of adjacency) {
      const c = state.context;
      for (const side of sides) {
        for (const item of ['photos', 'contact'] as const) {
          const shown = c.disclosures[side][item];
          if (shown === null) continue;
          released += 1;
          expect(c.answers.a.status).toBe('accepted');
          expect(c.answers.b.status).toBe('accepted');
          const consent = c.consents[side][item];
          expect(consent).not.toBeNull();
          expect(instantMs(consent ?? '')).toBeLessThanOrEqual(instantMs(shown));
        }
      }
      if (stateKeyOf(state.value).startsWith('proposee')) {
        expect(sides.map((s) => [c.disclosures[s].photos, c.disclosures[s].contact])).toEqual([
          [null, null],
          [null, null],
        ]);
      }
      expect(inconsistencies(stateKeyOf(state.value), c)).toEqual([]);
    }
    expect(released).toBeGreaterThan(0);
  });

  it('shares photos or contact only in a state after both acceptances that no END has ended (decision 194)', () => {
    const standing = { a: goodStanding(0), b: goodStanding(0) };
    let shared = 0;
    for (const { state } of adjacency) {
      const key = stateKeyOf(state.value);
      for (const viewer of sides) {
        const sharing = sharingOf({ state: key, context: state.context, viewer, standing });
        if (!sharing.photos && !sharing.contact) continue;
        shared += 1;
        expect(['acceptee', 'rencontre-planifiee', 'retours', 'poursuivie', 'fiancailles']).toContain(key);
        expect(state.context.ended).toBeNull();
        expect(sharing.end).toBeNull();
      }
    }
    expect(shared).toBeGreaterThan(0);
  });

  it('an END is the agency’s alone, closes what runs, keeps an engagement one, and nothing is shared after it', () => {
    const standing = { a: goodStanding(0), b: goodStanding(0) };
    let ends = 0;
    for (const edge of edges) {
      if (edge.event.type !== 'END' || !accepted(edge)) continue;
      ends += 1;
      expect(edge.event.actor.kind).toBe('staff');
      const key = stateKeyOf(edge.next.value);
      expect(key).toBe(edge.state.value === 'fiancailles' ? 'fiancailles' : 'close');
      expect(edge.next.context.ended).toMatchObject({ cause: 'terme', party: 'a' });
      for (const viewer of sides) {
        expect(sharingOf({ state: key, context: edge.next.context, viewer, standing })).toMatchObject({
          photos: false,
          contact: null,
          end: { kind: 'fin', cause: 'terme', party: 'a', recorded: true },
        });
      }
    }
    expect(ends).toBeGreaterThan(0);
  });

  it('an event that releases photos or contact is always the second acceptance', () => {
    let releases = 0;
    for (const edge of edges) {
      const before = edge.state.context.disclosures;
      const after = edge.next.context.disclosures;
      const newlyShown =
        sides.some((s) => before[s].contact === null && after[s].contact !== null) ||
        sides.some((s) => before[s].photos === null && after[s].photos !== null);
      if (!newlyShown) continue;
      releases += 1;
      expect(edge.event.type).toBe('ACCEPT');
      expect(edge.next.value).toBe('acceptee');
    }
    expect(releases).toBeGreaterThan(0);
  });

  it('always refuses a member event sent by the other side’s member or by staff', () => {
    let checked = 0;
    for (const edge of edges) {
      const e = edge.event;
      if (!isMemberEvent(e) || !('side' in e)) continue;
      if (e.actor.kind === 'member' && e.actor.side === e.side) continue;
      expect(accepted(edge), `${serializeState(edge.state)} ${JSON.stringify(e)}`).toBe(false);
      expect(edge.next.context).toEqual(edge.state.context);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('always refuses a staff-only event sent by a member', () => {
    let checked = 0;
    for (const edge of edges) {
      if (!isStaffOnlyEvent(edge.event) || edge.event.actor.kind !== 'member') continue;
      expect(accepted(edge), `${serializeState(edge.state)} ${JSON.stringify(edge.event)}`).toBe(false);
      expect(edge.next.context).toEqual(edge.state.context);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('expires only once the deadline has passed, and answers are taken only before it', () => {
    let expiries = 0;
    let refusedLastMs = 0;
    for (const edge of edges) {
      const deadline = deadlineOf(edge.state.context.proposedAt);
      const at = clockOf(edge.state.context, edge.event);
      if (edge.event.type === 'EXPIRE' && accepted(edge)) {
        expect(at).toBeGreaterThanOrEqual(deadline);
        expect(edge.next.value).toBe('expiree');
        expiries += 1;
      }
      if (edge.event.type === 'EXPIRE' && at === deadline - 1) {
        expect(accepted(edge)).toBe(false);
        refusedLastMs += 1;
      }
      if ((edge.event.type === 'ACCEPT' || edge.event.type === 'DECLINE') && accepted(edge)) expect(at).toBeLessThan(deadline);
    }
    expect(expiries).toBeGreaterThan(0);
    expect(refusedLastMs).toBeGreaterThan(0);
  });

  it('reminds at most once per round, from day 5 and before the deadline', () => {
    let reminders = 0;
    for (const edge of edges) {
      if (edge.event.type !== 'REMIND' || !accepted(edge)) continue;
      const at = clockOf(edge.state.context, edge.event);
      expect(edge.state.context.remindedAt).toBeNull();
      expect(at).toBeGreaterThanOrEqual(reminderDueAt(edge.state.context.proposedAt));
      expect(at).toBeLessThan(deadlineOf(edge.state.context.proposedAt));
      reminders += 1;
    }
    expect(reminders).toBeGreaterThan(0);
  });

  it('reaches fiancailles only with both sides announcing the engagement, and then nothing is open', () => {
    let engaged = 0;
    for (const { state } of adjacency) {
      if (state.value !== 'fiancailles') continue;
      expect(state.context.feedback.a?.outcome).toBe('fiances');
      expect(state.context.feedback.b?.outcome).toBe('fiances');
      expect(isOpen(stateKeyOf(state.value))).toBe(false);
      engaged += 1;
    }
    expect(engaged).toBeGreaterThan(0);
  });

  it.each(shortestPaths.map((path, index) => [index, path] as const))(
    'path %i: the stored row, replayed over decideEvent, follows the chart',
    async (_index, path) => {
      // The graph keeps one snapshot per abstract state; the path's events replayed on the chart give the concrete one.
      let chart = introductionMachine.resolveState({
        value: { proposee: 'attente-des-reponses' },
        context: path.steps[0]?.state.context ?? path.state.context,
      });
      let stored: StoredIntroduction = storedOf(chart, 0);
      await path.test({
        events: Object.fromEntries(
          eventTypes.map((type) => [
            type,
            (step: { event: IntroductionEvent }) => {
              const decision = decideEvent(stored, step.event);
              expect(decision.allowed, step.event.type).toBe(true);
              expect(chart.can(step.event)).toBe(true);
              chart = transition(introductionMachine, chart, step.event)[0];
              if (decision.allowed) stored = decision.stored;
            },
          ]),
        ),
        states: {
          '*': (snapshot) => {
            expect(stored.state).toBe(stateKeyOf(snapshot.value));
            expect(stored.context).toEqual(chart.context);
            // What the BFF stores survives a JSON round trip through the database and its schema.
            const reread = v.parse(storedIntroductionSchema, JSON.parse(JSON.stringify(stored)));
            const restored = restoreSnapshot(reread);
            expect(serializeState(restored)).toBe(serializeState(snapshot));
            expect(restored.context).toEqual(chart.context);
          },
        },
      });
      expect(stored.version).toBe(path.steps.length - 1);
    },
  );
});
