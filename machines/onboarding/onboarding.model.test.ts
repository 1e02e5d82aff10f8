import { describe, expect, it } from 'vitest';
import { type AnyStateNode, type AnyTransitionDefinition, createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { happyPath, type Member, samplePayloads } from '#tests/support/happy-path.ts';
import { toIsoInstant } from '#machines/onboarding/instant.ts';
import { type OnboardingEvent, onboardingMachine } from '#machines/onboarding/onboarding.machine.ts';
import { termEndsAtMs, termOver } from '#machines/onboarding/periods.ts';
import {
  addCalendarDays,
  contractDeadlines,
  subscriptionPaymentOpen,
  subscriptionPaymentOpensAt,
  withdrawalPeriodEndsAt,
} from '#machines/onboarding/legal-deadlines.ts';
import { emptyRecord, type OnboardingRecord, recordOf } from '#machines/onboarding/record.ts';
import { decideUpdate, type OnboardingSnapshot, stateFromRecord, stateValueOf } from '#machines/onboarding/restore.ts';
import { parisDayOf, parisDayStartMs } from '#machines/paris-time.ts';
import {
  applyBan,
  type ContextName,
  eventTypes,
  parseUpdate,
  toMachineEvent,
  type UpdatePayload,
} from '#machines/onboarding/update-contexts.ts';

/**
 * Model-based test. The model is the chart; the system under test is what the BFF
 * does with a stored record: `decideUpdate` (restore the chart from the record,
 * ask it, apply the update) and `stateFromRecord`. Every state is reached by a
 * shortest path, every transition is taken, and after each step the state restored
 * from the record equals the chart's state.
 */

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
const HOUR_MS = 60 * 60 * 1000;
const member: Member = { id: 'membre-0001', email: 'amina@example.fr', gender: 'femme' };
const OTHER_ID = 'membre-9999';

function parsed(body: unknown, now: number): UpdatePayload {
  const result = parseUpdate(body, now);
  if (!result.success) throw new Error(`Sample body refused: ${JSON.stringify(result.issues.map((i) => i.message))}`);
  return result.update;
}

/** The events tried in each state: valid ones, and a few that must be refused. */
function modelEvents(snapshot: OnboardingSnapshot): OnboardingEvent[] {
  const now = snapshot.context.now;
  const s = samplePayloads(member, now);
  const ev = (body: unknown, at = now) => toMachineEvent(parsed(body, at), at);
  const events: OnboardingEvent[] = [
    ev(s.profil),
    ev(s.questionnaire),
    ev({ context: 'form_per_inf', completed: true }),
    ev({ context: 'form_per_inf', completed: false }),
    ev({ context: 'sel_plan', id: 'plan_horizon_month', renounce: false }),
    ev({ context: 'sel_plan', id: 'plan_serenity_year_cachback', renounce: true }),
    ev(s.sel_plan_res),
    ev(s.coupon),
    ev(s.app),
    ev({ ...s.app, email: 'autre@example.fr' }),
    ev(s.pre_contract_ok),
    ev(s.onb_meet),
    ev({ context: 'onb_meet', date: toIsoInstant(now - HOUR_MS) }),
    ev(s.onb_meet_resa),
    ev({ ...s.onb_meet_resa, status: false }),
    ev({ ...s.onb_meet_resa, uid: OTHER_ID }),
    ev(s.onb_meet_cancel),
    ev(s.onb_meet_ok),
    ev({ ...s.onb_meet_ok, status: false }),
    ev(s.contractForm),
    ev(s.sub_date),
    ev({ context: 'sub_date', subDate: toIsoInstant(now - HOUR_MS) }),
    ev(s.sub),
    ev(s.meeting_mm),
    ev({ ...s.meeting_mm, uid: OTHER_ID }),
    ev(s.lmnop),
    ev({ ...s.lmnop, uid: OTHER_ID }),
    ev(s.renounce),
    ev(s.withdraw),
    ev(s.renew),
    ev(s.terminate),
    // A letter received yesterday (decision 189), for this member and for another.
    ev(s.terminate_letter),
    ev({ ...s.terminate_letter, uid: OTHER_ID }),
    ev(s.terminate_ok),
    ev({ ...s.terminate_ok, uid: OTHER_ID }),
    ev(s.terminate_no),
    ev({ ...s.terminate_no, uid: OTHER_ID }),
    { type: 'DISABLE', now },
    { type: 'TICK', now },
  ];
  // Staff mark the meeting held, or missed (issue 63), at its start, the earliest they may.
  const meetingAt = snapshot.context.onboardingMeetingDate === null ? null : Date.parse(snapshot.context.onboardingMeetingDate);
  if (meetingAt !== null && meetingAt > now) {
    events.push(
      ev(samplePayloads(member, meetingAt).onb_meet_ok, meetingAt),
      ev(samplePayloads(member, meetingAt - 1).onb_meet_ok, meetingAt - 1),
      ev({ ...samplePayloads(member, meetingAt).onb_meet_ok, status: false }, meetingAt),
      ev({ ...samplePayloads(member, meetingAt - 1).onb_meet_ok, status: false }, meetingAt - 1),
    );
  }
  // Payments sent at the last millisecond of the renunciation period (refused) and as payment opens.
  const payAt = subscriptionPaymentOpensAt(snapshot.context.subscriptionDate);
  if (payAt !== null && payAt > now) {
    for (const at of [payAt - 1, payAt]) events.push(ev(samplePayloads(member, at).app, at), ev(samplePayloads(member, at).sub, at));
  }
  // The rights (decision 118) are sent at the current instant: time moves to 1 ms before each
  // deadline and to the deadline (TICKs below), so renounce and withdraw are tried at the last
  // millisecond of their civil-day period (accepted) and at its end, 24:00 Paris (refused). A right
  // dated past a deadline without a TICK is tested in onboarding.machine.test.ts.
  const withdrawEndsAt = withdrawalPeriodEndsAt(snapshot.context.subscriptionDate);
  // Time moves only where it matters: to the end of each period and of the term, and 1 ms before.
  const opensAt = subscriptionPaymentOpensAt(snapshot.context.subscriptionDate);
  const termEndsAt = termEndsAtMs(snapshot.context);
  for (const at of [
    opensAt === null ? null : opensAt - 1,
    opensAt,
    withdrawEndsAt === null ? null : withdrawEndsAt - 1,
    withdrawEndsAt,
    termEndsAt === null ? null : termEndsAt - 1,
    termEndsAt,
  ]) {
    if (at !== null && at > now) events.push({ type: 'TICK', now: at });
  }
  return events;
}

/**
 * States are told apart by value and record; instants only by whether they are set,
 * and the clock by its phase relative to the signature's civil-day periods (renunciation,
 * withdrawal, after). Behaviour depends on nothing else, which keeps the graph finite.
 */
function serializeState(snapshot: OnboardingSnapshot): string {
  const c = snapshot.context;
  const deadlines = contractDeadlines(c.subscriptionDate);
  return JSON.stringify({
    value: snapshot.value,
    record: {
      ...recordOf(c),
      sensitiveDataConsentAt: c.sensitiveDataConsentAt !== null,
      onboardingMeetingDate: c.onboardingMeetingDate !== null,
      subscriptionDate: c.subscriptionDate !== null,
      contractRenouncedAt: Boolean(c.contractRenouncedAt),
      contractWithdrawnAt: Boolean(c.contractWithdrawnAt),
      terminationRequestedAt: Boolean(c.terminationRequestedAt),
      terminatedAt: Boolean(c.terminatedAt),
    },
    phase:
      deadlines === null
        ? null
        : termOver(c, c.now)
          ? 'after-term'
          : c.now < deadlines.renunciation.endsAtMs
            ? 'renunciation'
            : c.now < deadlines.withdrawal.endsAtMs
              ? 'withdrawal'
              : 'after-withdrawal',
    meetingStarted: c.onboardingMeetingDate === null ? null : Date.parse(c.onboardingMeetingDate) <= c.now,
  });
}

const model = createTestModel(onboardingMachine, {
  events: modelEvents,
  serializeState,
  input: { record: emptyRecord(member.id, member.email, member.gender), now: T0 },
});

/**
 * A path compares the record as the model tells states apart: instants by presence (a state is
 * kept once per serialised form, and the same state is reached at other instants — a missed
 * meeting booked again, a right exercised at day 0 or at day 7 − 1 ms). « takes every transition »
 * compares every record exactly, instants included.
 */
const INSTANT_FIELDS = [
  'sensitiveDataConsentAt',
  'onboardingMeetingDate',
  'subscriptionDate',
  'contractRenouncedAt',
  'contractWithdrawnAt',
  'terminationRequestedAt',
  'terminatedAt',
] as const;
function comparable(record: OnboardingRecord): Record<string, unknown> {
  const out: Record<string, unknown> = { ...record };
  for (const field of INSTANT_FIELDS) out[field] = Boolean(record[field]);
  return out;
}

const PAYMENT_EVENTS: ReadonlySet<string> = new Set([eventTypes.app, eventTypes.sub]);

/**
 * The property of decisions 105 and 165: a payment event is accepted only once the renunciation
 * period is over, and never before the end of the 7th whole Paris day after the signature's day
 * (checked here without the deadline module, from the calendar alone).
 */
function expectNoMoneyBeforeDaySeven(record: OnboardingRecord, event: OnboardingEvent, accepted: boolean, now: number) {
  if (!PAYMENT_EVENTS.has(event.type) || !accepted) return;
  const at = Math.max(now, event.now);
  expect(subscriptionPaymentOpen(record.subscriptionDate, at), `${event.type} accepted before day 7`).toBe(true);
  const signedDay = parisDayOf(Date.parse(record.subscriptionDate ?? ''));
  expect(at, `${event.type} accepted within the 7th civil day`).toBeGreaterThanOrEqual(parisDayStartMs(addCalendarDays(signedDay, 8)));
}

/** The BFF, simulated: a stored record and the server clock. */
class StoredRecord {
  record: OnboardingRecord = emptyRecord(member.id, member.email, member.gender);
  now = T0;

  /** Returns whether the event was accepted. */
  send(event: OnboardingEvent): boolean {
    this.now = Math.max(this.now, event.now);
    if (event.type === 'TICK') return true;
    if (event.type === 'DISABLE') {
      if (this.record.disabled) return false;
      this.record = applyBan(this.record, { disable: true, uid: this.record.id });
      return true;
    }
    const decision = decideUpdate(this.record, event.update, this.now);
    if (decision.allowed) this.record = decision.record;
    return decision.allowed;
  }
}

/** Every transition definition of the chart (event transitions and eventless ones). */
function allTransitions(node: AnyStateNode = onboardingMachine.root): AnyTransitionDefinition[] {
  const own = [...node.transitions.values()].flat();
  const always = node.always ?? [];
  return [...own, ...always, ...Object.values(node.states).flatMap((child) => allTransitions(child))];
}

function atomicStateIds(node: AnyStateNode = onboardingMachine.root): string[] {
  const children = Object.values(node.states);
  return children.length === 0 ? [node.id] : children.flatMap((child) => atomicStateIds(child));
}

function describeTransition(t: AnyTransitionDefinition): string {
  const targets = t.target?.map((n) => n.id).join(',') ?? '(self)';
  const guard = typeof t.guard === 'string' ? t.guard : t.guard ? 'guarded' : '';
  return `${t.source.id} --${t.eventType || 'always'}${guard ? ` [${guard}]` : ''}--> ${targets}`;
}

/** Takes one event from a snapshot with a real actor, and returns the transitions it took. */
function takeStep(from: OnboardingSnapshot, event: OnboardingEvent) {
  const taken: AnyTransitionDefinition[] = [];
  const actor = createActor(onboardingMachine, {
    snapshot: from,
    input: { record: recordOf(from.context), now: from.context.now },
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

function describePath(path: { state: OnboardingSnapshot; steps: { event: { type: string } }[] }): string {
  const events = path.steps.slice(1).map((step) => step.event.type);
  return `${events.join(' → ') || '(start)'} ⇒ ${JSON.stringify(path.state.value)}`;
}

const shortestPaths = model.getShortestPaths({ allowDuplicatePaths: true });
const adjacency = Object.values(model.getAdjacencyMap());

describe('onboarding chart, model-based', () => {
  it('offers a concrete event for every event type a state handles', () => {
    const handled = new Set(
      allTransitions()
        .map((t) => t.eventType)
        .filter((type) => type !== ''),
    );
    const offered = new Set(
      modelEvents(
        onboardingMachine.resolveState({ value: 'profil', context: { ...emptyRecord(member.id, member.email, member.gender), now: T0 } }),
      ).map((e) => e.type),
    );
    expect([...handled].sort()).toEqual([...offered].sort());
    expect(offered).toEqual(new Set([...Object.values(eventTypes), 'TICK', 'DISABLE']));
  });

  it('reaches every atomic state of the chart', () => {
    const reached = new Set(shortestPaths.flatMap((p) => p.state._nodes.filter((n) => n.type === 'atomic').map((n) => n.id)));
    expect([...reached].sort()).toEqual(atomicStateIds().sort());
    expect(atomicStateIds()).toHaveLength(20);
  });

  it.each(shortestPaths.map((path, index) => [index, describePath(path), path] as const))(
    'path %i: the record restores to the chart state along %s',
    async (_index, _description, path) => {
      const sut = new StoredRecord();
      await path.test({
        events: Object.fromEntries(
          [...Object.values(eventTypes), 'TICK', 'DISABLE'].map((type) => [
            type,
            (step: { event: OnboardingEvent; state: OnboardingSnapshot }) => {
              const before = sut.record;
              const beforeNow = sut.now;
              const accepted = sut.send(step.event);
              expect(accepted, `${step.event.type} accepted by the record store`).toBe(true);
              expectNoMoneyBeforeDaySeven(before, step.event, accepted, beforeNow);
            },
          ]),
        ),
        states: {
          '*': (snapshot) => {
            expect(comparable(sut.record)).toEqual(comparable(recordOf(snapshot.context)));
            expect(stateFromRecord(sut.record, sut.now)).toEqual(snapshot.value);
          },
        },
      });
      expect(stateValueOf(path.state)).toEqual(stateFromRecord(sut.record, sut.now));
    },
  );

  it('takes every transition, and the record store agrees with the chart on each one', () => {
    const definitions = allTransitions();
    const taken = new Set<AnyTransitionDefinition>();
    let checked = 0;
    for (const { state, transitions } of adjacency) {
      const edges = Object.values(transitions) as { event: OnboardingEvent; state: OnboardingSnapshot }[];
      for (const { event, state: next } of edges) {
        const step = takeStep(state, event);
        for (const t of step.taken) taken.add(t);
        expect(step.next.value).toEqual(next.value);

        const allowed = state.can(event);
        const sut = new StoredRecord();
        sut.record = recordOf(state.context);
        sut.now = state.context.now;
        const accepted = sut.send(event);
        if (event.type !== 'TICK') expect(accepted, `${serializeState(state)} ${event.type}`).toBe(allowed);
        expectNoMoneyBeforeDaySeven(recordOf(state.context), event, accepted, state.context.now);
        // Refused events change nothing; accepted ones change the record as the chart does.
        expect(sut.record).toEqual(recordOf(next.context));
        expect(stateFromRecord(sut.record, sut.now), `${serializeState(state)} ${JSON.stringify(event)}`).toEqual(next.value);
        checked += 1;
      }
    }
    const missing = definitions.filter((t) => !taken.has(t)).map(describeTransition);
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(definitions.length);
  }, 90_000); // ≈ 15 s alone; the two cores are shared with other suites (the letter's events added decision 189's edges).

  it('refuses every payment event in every state reached before signature + 7 days, on the chart and on the record', () => {
    let checked = 0;
    for (const { state } of adjacency) {
      const c = state.context;
      if (subscriptionPaymentOpen(c.subscriptionDate, c.now)) continue;
      const s = samplePayloads(member, c.now);
      for (const body of [s.app, s.sub]) {
        const event = toMachineEvent(parsed(body, c.now), c.now);
        expect(state.can(event), `${serializeState(state)} ${event.type}`).toBe(false);
        const sut = new StoredRecord();
        sut.record = recordOf(c);
        sut.now = c.now;
        expect(sut.send(event)).toBe(false);
        expect(sut.record).toEqual(recordOf(c));
        checked += 1;
      }
    }
    // Every state before the payment step, including the 7-day wait up to its last millisecond.
    expect(checked).toBeGreaterThan(20);
  });

  it('lets staff mark the onboarding meeting held only once it has started', () => {
    const reserved = adjacency
      .map(({ state }) => state)
      .find((state) => state.value === 'attente-entretien-personnalise' && !state.context.disabled);
    if (!reserved) throw new Error('attente-entretien-personnalise not reached');
    const start = Date.parse(reserved.context.onboardingMeetingDate ?? '');
    const held = (at: number) => toMachineEvent(parsed(samplePayloads(member, at).onb_meet_ok, at), at);
    expect(reserved.can(held(start - 1))).toBe(false);
    expect(reserved.can(held(start))).toBe(true);
  });

  it.each([false, true])('walks the canonical happy path (renounce: %s) on the chart and on the record', (renounce) => {
    let snapshot = onboardingMachine.resolveState({
      value: 'profil',
      context: { ...emptyRecord(member.id, member.email, member.gender), now: T0 },
    });
    const sut = new StoredRecord();
    for (const step of happyPath(member, { start: T0, renounce })) {
      const event = toMachineEvent(parsed(step.body, step.now), step.now);
      expect(snapshot.can(event), `${step.context} allowed`).toBe(true);
      snapshot = takeStep(snapshot, event).next;
      expect(sut.send(event)).toBe(true);
      expect(snapshot.value).toEqual(step.stateAfter);
      expect(stateFromRecord(sut.record, sut.now)).toEqual(step.stateAfter);
    }
    expect(snapshot.value).toBe('membre-actif');
    const contexts: ContextName[] = happyPath(member, { start: T0 }).map((s) => s.context);
    expect(contexts).toEqual([
      'profil',
      'questionnaire',
      'form_per_inf',
      'sel_plan',
      'pre_contract_ok',
      'onb_meet',
      'onb_meet_resa',
      'onb_meet_ok',
      'contractForm',
      'sub_date',
      'app',
      'sub',
      'meeting_mm',
    ]);
    const last = happyPath(member, { start: T0, renounce }).at(-1);
    const signed = happyPath(member, { start: T0, renounce }).find((s) => s.context === 'sub_date');
    // Signed Wednesday 8 Jan 2025 at 11:00 Paris: paid as payment opens, Thursday 16 Jan at 00:00
    // Paris; active then (renounced) or as the withdrawal period ends, Thursday 23 Jan at 00:00.
    expect(signed?.now).toBe(Date.parse('2025-01-08T11:00:00+01:00'));
    expect(happyPath(member, { start: T0, renounce }).find((s) => s.context === 'app')?.now).toBe(Date.parse('2025-01-16T00:00:00+01:00'));
    expect(last?.now).toBe(Date.parse(renounce ? '2025-01-16T00:00:00+01:00' : '2025-01-23T00:00:00+01:00'));
  });
});
