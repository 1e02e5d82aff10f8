import { describe, expect, it } from 'vitest';
import { createActor, transition } from 'xstate';
import { happyPath, type Member, samplePayloads } from '#tests/support/happy-path.ts';
import { DAY_MS, toIsoInstant } from '#machines/onboarding/instant.ts';
import { type OnboardingEvent, onboardingMachine } from '#machines/onboarding/onboarding.machine.ts';
import { emptyRecord, type OnboardingRecord, recordOf } from '#machines/onboarding/record.ts';
import { decideUpdate, type OnboardingSnapshot, restoreSnapshot } from '#machines/onboarding/restore.ts';
import { type ContextName, contextNames, eventTypes, parseUpdate, toMachineEvent } from '#machines/onboarding/update-contexts.ts';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
/**
 * The happy path signs on Wednesday 8 Jan 2025 at 11:00 Paris. In civil days (decision 165) the
 * renunciation period's last day is Wednesday 15 Jan: payment opens Thursday 16 Jan at 00:00
 * Paris; the withdrawal period's last day is Wednesday 22 Jan, over on Thursday 23 Jan at 00:00.
 */
const SIGNED_AT = Date.parse('2025-01-08T11:00:00+01:00');
const PAYMENT_OPENS = Date.parse('2025-01-16T00:00:00+01:00');
const WITHDRAWAL_ENDS = Date.parse('2025-01-23T00:00:00+01:00');
const MINUTE_MS = 60 * 1000;
const member: Member = { id: 'membre-0001', email: 'amina@example.fr', gender: 'femme' };
const fresh = () => emptyRecord(member.id, member.email, member.gender);

/** A machine event from a raw request body, as the BFF builds it. */
function event(body: Record<string, unknown>, now = T0): OnboardingEvent {
  const result = parseUpdate(body, now);
  if (!result.success) throw new Error(result.issues.map((i) => i.message).join(', '));
  return toMachineEvent(result.update, now);
}

function sample<C extends ContextName>(context: C, patch: Record<string, unknown> = {}, now = T0) {
  return event({ ...samplePayloads(member, now)[context], ...patch }, now);
}

/**
 * The record of a member who followed the happy path up to and including the step
 * with this context (renounce decides the 14-day wait).
 */
function recordAfter(context: ContextName | null, renounce = false): { record: OnboardingRecord; now: number } {
  let record = fresh();
  let now = T0;
  if (context === null) return { record, now };
  for (const step of happyPath(member, { start: T0, renounce })) {
    const result = parseUpdate(step.body, step.now);
    if (!result.success) throw new Error('sample refused');
    const decision = decideUpdate(record, result.update, step.now);
    if (!decision.allowed) throw new Error(`${step.context} refused`);
    record = decision.record;
    now = step.now;
    if (step.context === context) return { record, now };
  }
  throw new Error(`no step ${context}`);
}

function snapshotAfter(context: ContextName | null, renounce = false, later = 0): OnboardingSnapshot {
  const { record, now } = recordAfter(context, renounce);
  return restoreSnapshot(record, now + later);
}

function next(snapshot: OnboardingSnapshot, e: OnboardingEvent): OnboardingSnapshot {
  return transition(onboardingMachine, snapshot, e)[0];
}

describe('starting', () => {
  it('a new member starts on the profile step, with the record and clock as context', () => {
    const actor = createActor(onboardingMachine, { input: { record: fresh(), now: T0 } }).start();
    expect(actor.getSnapshot().value).toBe('profil');
    expect(actor.getSnapshot().context).toEqual({ ...fresh(), now: T0 });
    actor.stop();
  });
});

describe('no step can be skipped', () => {
  /** After each step of the happy path: every update context the chart accepts (sample bodies). */
  const table: [ContextName | null, ContextName[]][] = [
    [null, ['profil']],
    ['profil', ['questionnaire']],
    ['questionnaire', ['questionnaire', 'form_per_inf']],
    ['form_per_inf', ['sel_plan']],
    ['sel_plan', ['pre_contract_ok', 'sel_plan_res']],
    ['pre_contract_ok', ['onb_meet']],
    ['onb_meet', ['onb_meet', 'onb_meet_resa']],
    // Held (status true) only once the meeting has started: the sample is sent at booking time.
    ['onb_meet_resa', ['onb_meet_cancel']],
    ['onb_meet_ok', ['contractForm']],
    ['contractForm', ['sub_date']],
    // Within 7 days the member may renounce (L224-91); from day 7 to 14, withdraw (L221-18).
    ['sub_date', ['renounce']],
    ['app', ['sub', 'withdraw']],
    ['sub', ['withdraw']],
    // An active member may ask to terminate for a legitimate reason (R224-2, decision 119), online
    // or by a letter that staff record (decision 189).
    ['meeting_mm', ['terminate', 'terminate_letter']],
  ];

  it.each(table)('after %s the chart accepts exactly %j (plus the staff reset)', (done, expected) => {
    const snapshot = snapshotAfter(done);
    const now = snapshot.context.now;
    const allowed = contextNames.filter((context) => snapshot.can(sample(context, {}, now)));
    expect(allowed.sort()).toEqual([...expected, 'lmnop'].sort());
  });
});

describe('steps 1-3: profile, questionnaire, plans', () => {
  it('saving the profile records the consent date and opens the questionnaire', () => {
    const after = next(snapshotAfter(null), sample('profil', {}, T0 + 5 * MINUTE_MS));
    expect(after.value).toBe('questionnaire-profil');
    expect(after.context.profileCompleted).toBe(true);
    expect(after.context.sensitiveDataConsentAt).toBe(toIsoInstant(T0 + 5 * MINUTE_MS));
  });

  it('form_per_inf completed is refused until the questionnaire is saved', () => {
    const onQuestionnaire = snapshotAfter('profil');
    expect(onQuestionnaire.can(sample('form_per_inf'))).toBe(false);
    const saved = next(onQuestionnaire, sample('questionnaire'));
    expect(saved.value).toBe('questionnaire-profil');
    expect(next(saved, sample('form_per_inf')).value).toBe('formules');
  });

  it.each(['profil', 'form_per_inf'] as const)('form_per_inf completed: false after %s goes back to the profile', (done) => {
    const after = next(snapshotAfter(done), sample('form_per_inf', { completed: false }));
    expect(after.value).toBe('profil');
    expect(after.context.profileCompleted).toBe(false);
    expect(after.context.formPersonnalInfoCompleted).toBe(false);
  });

  it('form_per_inf completed: true is refused on the plans step (nothing to confirm again)', () => {
    expect(snapshotAfter('form_per_inf').can(sample('form_per_inf'))).toBe(false);
  });

  it('choosing a plan records the plan and the renounce flag', () => {
    const after = next(snapshotAfter('form_per_inf'), sample('sel_plan', { id: 'plan_horizon_year', renounce: true }));
    expect(after.value).toBe('informations-et-tarifs');
    expect(after.context.selectedPlanId).toBe('plan_horizon_year');
    expect(after.context.renouncedWithdrawalRight).toBe(true);
  });
});

describe('step 4: pre-contract information, the plan may still change', () => {
  it('sel_plan_res goes back to the plans and clears plan and renounce flag', () => {
    const after = next(snapshotAfter('sel_plan'), sample('sel_plan_res'));
    expect(after.value).toBe('formules');
    expect(after.context).toMatchObject({ selectedPlanId: null, renouncedWithdrawalRight: null, couponApplied: false });
  });

  it('sel_plan_res is refused once the pre-contract information is acknowledged', () => {
    expect(snapshotAfter('pre_contract_ok').can(sample('sel_plan_res'))).toBe(false);
  });

  it('no money before the contract: file fee, subscription and coupon are refused', () => {
    for (const done of ['sel_plan', 'pre_contract_ok', 'onb_meet_resa', 'onb_meet_ok', 'contractForm'] as const) {
      const snapshot = snapshotAfter(done);
      for (const context of ['app', 'sub', 'coupon'] as const) {
        expect(snapshot.can(sample(context, {}, snapshot.context.now)), `${context} after ${done}`).toBe(false);
      }
    }
  });
});

describe('steps 5-6: booking, onboarding meeting', () => {
  it('the meeting date must be in the future', () => {
    const snapshot = snapshotAfter('pre_contract_ok');
    expect(snapshot.can(sample('onb_meet', { date: toIsoInstant(T0) }))).toBe(false);
    expect(snapshot.can(sample('onb_meet', { date: toIsoInstant(T0 + MINUTE_MS) }))).toBe(true);
  });

  it('the date can be changed until the booking is confirmed', () => {
    const changed = next(snapshotAfter('onb_meet'), sample('onb_meet', { date: '2025-01-10T14:30:00+01:00' }));
    expect(changed.value).toEqual({ 'prendre-un-rendez-vous': 'confirmation' });
    expect(changed.context.onboardingMeetingDate).toBe('2025-01-10T13:30:00.000Z');
  });

  it('a booking abandoned before confirmation returns to choosing a slot', () => {
    const after = next(snapshotAfter('onb_meet'), sample('onb_meet_resa', { status: false }));
    expect(after.value).toEqual({ 'prendre-un-rendez-vous': 'choix-creneau' });
    expect(after.context).toMatchObject({ onboardingMeetingDateSelected: false, onboardingMeetingDate: null });
  });

  it('a reservation is refused before a date is chosen, and for another member', () => {
    expect(snapshotAfter('pre_contract_ok').can(sample('onb_meet_resa'))).toBe(false);
    expect(snapshotAfter('onb_meet').can(sample('onb_meet_resa', { uid: 'membre-9999' }))).toBe(false);
  });

  it.each([
    ['a cancelled booking', 'onb_meet_cancel', {}],
    ['a missed meeting', 'onb_meet_ok', { status: false }],
  ] as const)('%s returns to booking with the meeting cleared', (_label, context, patch) => {
    const booked = snapshotAfter('onb_meet_resa');
    // A meeting is missed once its time has come (issue 63); a booking may be cancelled at any time.
    const after = next(booked, sample(context, patch, Date.parse(booked.context.onboardingMeetingDate ?? '')));
    expect(after.value).toEqual({ 'prendre-un-rendez-vous': 'choix-creneau' });
    expect(after.context).toMatchObject({
      onboardingMeetingDateSelected: false,
      onboardingMeetingReserved: false,
      onboardingMeetingDate: null,
      onboardingMeetingDone: false,
    });
  });

  it('staff cannot mark the meeting missed before it starts (issue 63)', () => {
    const booked = snapshotAfter('onb_meet_resa');
    const start = Date.parse(booked.context.onboardingMeetingDate ?? '');
    expect(booked.can(sample('onb_meet_ok', { status: false }, start - 1))).toBe(false);
    expect(next(booked, sample('onb_meet_ok', { status: false }, start - 1)).value).toBe('attente-entretien-personnalise');
    expect(booked.can(sample('onb_meet_ok', { status: false }, start))).toBe(true);
  });

  it('staff marking the meeting held opens the contract, never before the meeting starts', () => {
    const booked = snapshotAfter('onb_meet_resa');
    const start = Date.parse(booked.context.onboardingMeetingDate ?? '');
    expect(booked.can(sample('onb_meet_ok', {}, start - 1))).toBe(false);
    expect(next(booked, sample('onb_meet_ok', {}, start - 1)).value).toBe('attente-entretien-personnalise');
    const after = next(booked, sample('onb_meet_ok', {}, start));
    expect(after.value).toEqual({ 'attente-contrat': 'formulaire-contrat' });
  });
});

describe('steps 7-8: contract, signature, 7 days without any payment (L224-91), then payment', () => {
  it('the signature date cannot be backdated nor set in the future beyond the clock skew', () => {
    const { record, now } = recordAfter('contractForm');
    const snapshot = restoreSnapshot(record, now);
    const at = (offset: number) => sample('sub_date', { subDate: toIsoInstant(now + offset) }, now);
    expect(snapshot.can(at(0))).toBe(true);
    expect(snapshot.can(at(-15 * MINUTE_MS))).toBe(true);
    expect(snapshot.can(at(-16 * MINUTE_MS))).toBe(false);
    expect(snapshot.can(at(15 * MINUTE_MS))).toBe(true);
    expect(snapshot.can(at(16 * MINUTE_MS))).toBe(false);
    expect(snapshot.can(at(-DAY_MS))).toBe(false);
  });

  it.each([
    { label: 'just after signature', at: SIGNED_AT, allowed: false },
    { label: '6 days later', at: SIGNED_AT + 6 * DAY_MS, allowed: false },
    { label: '7 × 24 hours later, on the 7th day (Wednesday 15 Jan, 11:00 Paris)', at: SIGNED_AT + 7 * DAY_MS, allowed: false },
    { label: 'on the 7th day at 23:59:59.999 Paris', at: PAYMENT_OPENS - 1, allowed: false },
    { label: 'at 00:00 Paris the day after the 7th day', at: PAYMENT_OPENS, allowed: true },
    { label: '10 days later', at: SIGNED_AT + 10 * DAY_MS, allowed: true },
  ])('file fee, subscription and coupon $label → allowed $allowed (whatever the renounce flag)', ({ at, allowed }) => {
    for (const renounce of [false, true]) {
      const { record, now } = recordAfter('sub_date', renounce);
      expect(now).toBe(SIGNED_AT);
      const signed = restoreSnapshot(record, now);
      expect(signed.value).toEqual({ 'attente-contrat': 'delai-renonciation' });
      // The event's own clock decides: no TICK needed before paying.
      expect(signed.can(sample('sub', {}, at))).toBe(allowed);
      expect(signed.can(sample('app', {}, at))).toBe(allowed);
      if (!renounce) expect(restoreSnapshot(record, at).can(sample('coupon', {}, at))).toBe(allowed);
    }
  });

  it('TICK moves the waiting screen to payment exactly when the renunciation period is over', () => {
    const { record, now } = recordAfter('sub_date');
    const signed = restoreSnapshot(record, now);
    expect(next(signed, { type: 'TICK', now: PAYMENT_OPENS - 1 }).value).toEqual({ 'attente-contrat': 'delai-renonciation' });
    expect(next(signed, { type: 'TICK', now: PAYMENT_OPENS }).value).toBe('frais-de-dossier');
  });

  it('payment is refused with another e-mail', () => {
    const { record } = recordAfter('sub_date');
    const open = restoreSnapshot(record, PAYMENT_OPENS);
    expect(open.value).toBe('frais-de-dossier');
    expect(open.can(sample('sub', { email: 'autre@example.fr' }, PAYMENT_OPENS))).toBe(false);
    expect(open.can(sample('app', { email: 'autre@example.fr' }, PAYMENT_OPENS))).toBe(false);
    expect(open.can(sample('app', { email: 'AMINA@example.fr' }, PAYMENT_OPENS))).toBe(true);
  });

  it('the clock never goes back: an event dated earlier keeps the later time', () => {
    const { record, now } = recordAfter('sub_date');
    const open = restoreSnapshot(record, PAYMENT_OPENS);
    const ticked = next(open, { type: 'TICK', now: now });
    expect(ticked.context.now).toBe(PAYMENT_OPENS);
    expect(ticked.can(sample('sub', {}, now))).toBe(true);
  });

  it('both payments are needed, in either order; each only once', () => {
    const { record } = recordAfter('sub_date');
    const open = restoreSnapshot(record, PAYMENT_OPENS);
    const at = PAYMENT_OPENS;
    const feeFirst = next(open, sample('app', {}, at));
    expect(feeFirst.value).toBe('frais-de-dossier');
    expect(feeFirst.can(sample('app', {}, at))).toBe(false);
    expect(next(feeFirst, sample('sub', {}, at)).value).toEqual({ attente: 'delai-retractation' });
    const subFirst = next(open, sample('sub', {}, at));
    expect(subFirst.value).toBe('frais-de-dossier');
    expect(subFirst.can(sample('sub', {}, at))).toBe(false);
    expect(next(subFirst, sample('app', {}, at)).value).toEqual({ attente: 'delai-retractation' });
  });

  it.each([
    { renounce: false, appliedBefore: false, feePaid: false, allowed: true },
    { renounce: false, appliedBefore: true, feePaid: false, allowed: false },
    { renounce: true, appliedBefore: false, feePaid: false, allowed: false },
    { renounce: false, appliedBefore: false, feePaid: true, allowed: false },
  ])(
    'coupon with renounce=$renounce, already applied=$appliedBefore, file fee paid=$feePaid → allowed $allowed',
    ({ renounce, appliedBefore, feePaid, allowed }) => {
      const { record } = recordAfter('sub_date', renounce);
      const at = PAYMENT_OPENS;
      let snapshot = restoreSnapshot(record, at);
      if (appliedBefore) snapshot = next(snapshot, sample('coupon', {}, at));
      if (feePaid) snapshot = next(snapshot, sample('app', {}, at));
      expect(snapshot.can(sample('coupon', {}, at))).toBe(allowed);
    },
  );
});

describe('step 9: 14-day withdrawal period (L221-18), matchmaking meeting', () => {
  it.each([
    { renounce: false, label: 'as payment opens', at: PAYMENT_OPENS, allowed: false },
    { renounce: false, label: '14 × 24 hours after signature, on the 14th day', at: SIGNED_AT + 14 * DAY_MS, allowed: false },
    { renounce: false, label: 'on the 14th day at 23:59:59.999 Paris', at: WITHDRAWAL_ENDS - 1, allowed: false },
    { renounce: false, label: 'at 00:00 Paris after the 14th day', at: WITHDRAWAL_ENDS, allowed: true },
    { renounce: true, label: 'as payment opens', at: PAYMENT_OPENS, allowed: true },
  ])('renounce=$renounce, $label → meeting_mm allowed $allowed', ({ renounce, at, allowed }) => {
    const { record } = recordAfter('sub', renounce);
    const snapshot = restoreSnapshot(record, at);
    expect(snapshot.value).toEqual({ attente: allowed ? 'entretien-matchmaking' : 'delai-retractation' });
    expect(snapshot.can(sample('meeting_mm', {}, at))).toBe(allowed);
  });

  it('without renouncing, paying lands on the withdrawal wait; TICK at the end of the 14th day moves on', () => {
    const { record, now } = recordAfter('sub');
    const waiting = restoreSnapshot(record, now);
    expect(waiting.value).toEqual({ attente: 'delai-retractation' });
    expect(next(waiting, { type: 'TICK', now: WITHDRAWAL_ENDS - 1 }).value).toEqual({ attente: 'delai-retractation' });
    expect(next(waiting, { type: 'TICK', now: WITHDRAWAL_ENDS }).value).toEqual({ attente: 'entretien-matchmaking' });
  });

  it('meeting_mm for another member is refused; for this member it makes an active member', () => {
    const { record, now } = recordAfter('sub', true);
    const snapshot = restoreSnapshot(record, now);
    expect(snapshot.can(sample('meeting_mm', { uid: 'membre-9999' }, now))).toBe(false);
    const active = next(snapshot, sample('meeting_mm', {}, now));
    expect(active.value).toBe('membre-actif');
    expect(active.context.matchmakingMeetingDone).toBe(true);
  });
});

describe('reset (lmnop) and disabled account', () => {
  it('staff reset brings an active member back to step 1 with all progress cleared', () => {
    const active = snapshotAfter('meeting_mm');
    expect(active.value).toBe('membre-actif');
    const reset = next(active, sample('lmnop', {}, active.context.now));
    expect(reset.value).toBe('profil');
    expect(recordOf(reset.context)).toEqual(fresh());
  });

  it('reset is refused for another member id', () => {
    expect(snapshotAfter('sel_plan').can(sample('lmnop', { uid: 'membre-9999' }))).toBe(false);
  });

  it.each([null, 'sel_plan', 'onb_meet_resa', 'sub_date', 'meeting_mm'] as const)(
    'DISABLE after %s lands on desactive, where no update is accepted any more',
    (done) => {
      const snapshot = snapshotAfter(done);
      const disabled = next(snapshot, { type: 'DISABLE', now: snapshot.context.now });
      expect(disabled.value).toBe('desactive');
      expect(disabled.context.disabled).toBe(true);
      for (const context of contextNames) {
        expect(disabled.can(sample(context, {}, disabled.context.now)), context).toBe(false);
      }
      expect(disabled.can({ type: 'DISABLE', now: disabled.context.now })).toBe(false);
    },
  );

  it('every update context maps to an event the chart knows', () => {
    const known = new Set(onboardingMachine.events);
    for (const type of Object.values(eventTypes)) expect(known.has(type), type).toBe(true);
  });
});
