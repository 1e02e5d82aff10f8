import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { happyPath, type Member, samplePayloads } from '#tests/support/happy-path.ts';
import { DAY_MS, instantMs, toIsoInstant } from '#machines/onboarding/instant.ts';
import { onboardingMachine } from '#machines/onboarding/onboarding.machine.ts';
import {
  contractEndsAtMs,
  termEndsAtMs,
  terminationRefundCents,
  terminationRefundDueByMs,
  withdrawalRefundCents,
} from '#machines/onboarding/periods.ts';
import { renunciationOpen, withdrawalOpen } from '#machines/onboarding/legal-deadlines.ts';
import { emptyRecord, type OnboardingRecord, onboardingRecordSchema } from '#machines/onboarding/record.ts';
import { decideUpdate, restoreActor, restoreSnapshot, stateFromRecord } from '#machines/onboarding/restore.ts';
import { type ContextName, parseUpdate, type UpdatePayload } from '#machines/onboarding/update-contexts.ts';
import * as v from 'valibot';
import { parisDayOf, parisDayStartMs } from '#machines/paris-time.ts';

/** Decision 118: renunciation (L224-91), withdrawal (L221-18), the term's end (L224-90), renewal. */

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
/**
 * The happy path signs on Wednesday 7 Jan 2026 at 11:00 Paris. Civil days (decision 165): the
 * renunciation period's last day is Wednesday 14 Jan (over Thursday 15 Jan at 00:00 Paris), the
 * withdrawal period's Wednesday 21 Jan (over Thursday 22 Jan at 00:00 Paris).
 */
const SIGNED_AT = Date.parse('2026-01-07T11:00:00+01:00');
const RENUNCIATION_ENDS = Date.parse('2026-01-15T00:00:00+01:00');
const WITHDRAWAL_ENDS = Date.parse('2026-01-22T00:00:00+01:00');
const member: Member = { id: 'membre-0001', email: 'amina@example.fr', gender: 'femme' };

function parsed(body: unknown, now: number): UpdatePayload {
  const result = parseUpdate(body, now);
  if (!result.success) throw new Error(JSON.stringify(result.issues.map((i) => i.message)));
  return result.update;
}

/** The stored record after the happy path up to (and including) `until`, with the signature instant. */
function recordAfter(until: ContextName, options: { renounce?: boolean; planId?: 'plan_serenity_month' | 'plan_horizon_year' } = {}) {
  let record: OnboardingRecord = emptyRecord(member.id, member.email, member.gender);
  let now = T0;
  for (const step of happyPath(member, { start: T0, ...options })) {
    const decision = decideUpdate(record, parsed(step.body, step.now), step.now);
    if (!decision.allowed) throw new Error(`${step.context} refused`);
    record = decision.record;
    now = step.now;
    if (step.context === until) break;
  }
  return { record, now, signedAt: instantMs(record.subscriptionDate ?? '') };
}

function send(
  record: OnboardingRecord,
  context: 'renounce' | 'withdraw' | 'renew' | 'app' | 'sub' | 'coupon' | 'terminate' | 'terminate_ok' | 'terminate_no',
  at: number,
) {
  return decideUpdate(record, parsed(samplePayloads(member, at)[context], at), at);
}

describe('renunciation within 7 civil days of signature (L224-91)', () => {
  it.each([
    ['7 × 24 hours after signature, on the 7th day', 7 * DAY_MS],
    ['at 23:59:59.999 Paris on the 7th day', RENUNCIATION_ENDS - 1 - SIGNED_AT],
  ])('is allowed %s, and ends the contract in `renonce`', (_label, offset) => {
    const { record, signedAt } = recordAfter('sub_date');
    expect(signedAt).toBe(SIGNED_AT);
    const at = signedAt + offset;
    const decision = send(record, 'renounce', at);
    expect(decision.allowed).toBe(true);
    if (!decision.allowed) return;
    expect(decision.state).toBe('renonce');
    expect(decision.record.contractRenouncedAt).toBe(toIsoInstant(at));
    expect(stateFromRecord(decision.record, at)).toBe('renonce');
  });

  it('is refused at 24:00 Paris on the 7th day, with the payment step as the state', () => {
    const { record } = recordAfter('sub_date');
    const decision = send(record, 'renounce', RENUNCIATION_ENDS);
    expect(decision).toMatchObject({ allowed: false, state: 'frais-de-dossier' });
    expect(renunciationOpen(record.subscriptionDate, RENUNCIATION_ENDS)).toBe(false);
    expect(renunciationOpen(record.subscriptionDate, RENUNCIATION_ENDS - 1)).toBe(true);
  });

  it('is refused before the signature (nothing to renounce)', () => {
    const { record, now } = recordAfter('contractForm');
    expect(send(record, 'renounce', now)).toMatchObject({ allowed: false, state: { 'attente-contrat': 'signature' } });
  });

  it('a renunciation dated after the period reaching a chart still in the 7-day wait is refused (no TICK in between)', () => {
    const { record, now } = recordAfter('sub_date');
    const actor = restoreActor(record, now).start();
    const at = RENUNCIATION_ENDS;
    actor.send({ type: 'RENOUNCE_CONTRACT', now: at, update: parsed(samplePayloads(member, at).renounce, at) } as never);
    expect(actor.getSnapshot().value).not.toBe('renonce');
    expect(actor.getSnapshot().context.contractRenouncedAt).toBeUndefined();
    actor.stop();
  });

  it('after renouncing, nothing can ever be paid: app, sub and the coupon are refused at any later time', () => {
    const { record, signedAt } = recordAfter('sub_date');
    const renounced = send(record, 'renounce', signedAt + 3 * DAY_MS);
    if (!renounced.allowed) throw new Error('refused');
    for (const at of [signedAt + 7 * DAY_MS, signedAt + 8 * DAY_MS, signedAt + 400 * DAY_MS]) {
      for (const context of ['app', 'sub', 'coupon', 'withdraw'] as const) {
        expect(send(renounced.record, context, at), `${context} at ${at}`).toMatchObject({ allowed: false, state: 'renonce' });
      }
    }
  });

  it('only the member sends it (memberOnly), and its body must confirm', () => {
    expect(parseUpdate({ context: 'renounce', confirm: false }, T0)).toMatchObject({ success: false });
    expect(parseUpdate({ context: 'renounce' }, T0)).toMatchObject({ success: false });
  });
});

describe('withdrawal within 14 civil days of signature (L221-18, L221-19)', () => {
  it.each([
    ['on the payment step, as it opens', 'app' as ContextName, RENUNCIATION_ENDS],
    ['during the 14-day wait', 'sub' as ContextName, SIGNED_AT + 10 * DAY_MS],
    ['14 × 24 hours after signature, on the 14th day', 'sub' as ContextName, SIGNED_AT + 14 * DAY_MS],
    ['at 23:59:59.999 Paris on the 14th day', 'sub' as ContextName, WITHDRAWAL_ENDS - 1],
  ])('is allowed %s and ends in `retracte`', (_label, until, at) => {
    const { record } = recordAfter(until);
    const decision = send(record, 'withdraw', at);
    expect(decision).toMatchObject({ allowed: true, state: 'retracte' });
    if (decision.allowed) expect(decision.record.contractWithdrawnAt).toBe(toIsoInstant(at));
  });

  it('is refused at 24:00 Paris on the 14th day', () => {
    const { record } = recordAfter('sub');
    const at = WITHDRAWAL_ENDS;
    expect(send(record, 'withdraw', at)).toMatchObject({ allowed: false, state: { attente: 'entretien-matchmaking' } });
    expect(withdrawalOpen(record.subscriptionDate, at)).toBe(false);
    expect(withdrawalOpen(record.subscriptionDate, at - 1)).toBe(true);
  });

  it('is refused during the 7 days (the renunciation is the right then)', () => {
    const { record, signedAt } = recordAfter('sub_date');
    expect(send(record, 'withdraw', signedAt + DAY_MS)).toMatchObject({ allowed: false });
  });

  it('an active member who asked to start early may still withdraw until the end of the 14th day', () => {
    const { record, signedAt, now } = recordAfter('meeting_mm', { renounce: true });
    expect(stateFromRecord(record, now)).toBe('membre-actif');
    expect(send(record, 'withdraw', signedAt + 13 * DAY_MS)).toMatchObject({ allowed: true, state: 'retracte' });
    expect(send(record, 'withdraw', signedAt + 14 * DAY_MS)).toMatchObject({ allowed: true, state: 'retracte' });
    expect(send(record, 'withdraw', WITHDRAWAL_ENDS)).toMatchObject({ allowed: false, state: 'membre-actif' });
  });

  it('refunds everything, or less the days elapsed pro rata when an early start was asked (L221-25)', () => {
    const signedAtMs = T0;
    const endsAtMs = T0 + 365 * DAY_MS;
    const base = { paidCents: 16_900 + 8_500, contractPriceCents: 16_900 + 102_000, signedAtMs, endsAtMs };
    expect(withdrawalRefundCents({ ...base, earlyStart: false, now: T0 + 10 * DAY_MS })).toMatchObject({
      refundCents: 25_400,
      keptCents: 0,
    });
    const early = withdrawalRefundCents({ ...base, earlyStart: true, now: T0 + 10 * DAY_MS + 5 });
    expect(early.elapsedDays).toBe(10);
    expect(early.termDays).toBe(365);
    expect(early.keptCents).toBe(Math.round((118_900 * 10) / 365));
    expect(early.refundCents).toBe(25_400 - early.keptCents);
    // Never more kept than paid.
    expect(withdrawalRefundCents({ ...base, paidCents: 100, earlyStart: true, now: T0 + 13 * DAY_MS }).refundCents).toBe(0);
  });
});

describe('the term ends (L224-90)', () => {
  it('the end is the signature plus the plan’s months, at midnight (Paris) after the last day', () => {
    // Signed 5 January 2026 at 10:00 Paris: 12 months → ends 5 January 2027 00:00 Paris (= 4 Jan 23:00 UTC).
    expect(toIsoInstant(contractEndsAtMs('2026-01-05T09:00:00.000Z', 12) ?? 0)).toBe('2027-01-04T23:00:00.000Z');
    // Summer time: signed 10 June 2026 01:30 Paris (9 June 23:30 UTC) → ends 10 December 2026 00:00 Paris.
    expect(toIsoInstant(contractEndsAtMs('2026-06-09T23:30:00.000Z', 6) ?? 0)).toBe('2026-12-09T23:00:00.000Z');
    // Winter to summer: signed 1 February → 6 months → 1 August 00:00 Paris (31 July 22:00 UTC).
    expect(toIsoInstant(contractEndsAtMs('2026-02-01T12:00:00.000Z', 6) ?? 0)).toBe('2026-07-31T22:00:00.000Z');
    expect(contractEndsAtMs(null, 6)).toBeNull();
  });

  it('membre-actif moves to contrat-termine exactly at the end (TICK), and a restore agrees', () => {
    const { record, now } = recordAfter('meeting_mm');
    const end = termEndsAtMs(record) ?? 0;
    expect(end).toBe(contractEndsAtMs(record.subscriptionDate, 12));
    expect(stateFromRecord(record, end - 1)).toBe('membre-actif');
    expect(stateFromRecord(record, end)).toBe('contrat-termine');
    const actor = restoreActor(record, now).start();
    actor.send({ type: 'TICK', now: end - 1 });
    expect(actor.getSnapshot().value).toBe('membre-actif');
    actor.send({ type: 'TICK', now: end });
    expect(actor.getSnapshot().value).toBe('contrat-termine');
    actor.stop();
    expect(restoreSnapshot(record, end + DAY_MS).value).toBe('contrat-termine');
  });

  it.each([
    ['left unpaid (frais-de-dossier)', 'sub_date', 'frais-de-dossier'],
    ['paid, its matchmaking meeting never held (attente)', 'sub', { attente: 'entretien-matchmaking' }],
  ] as const)('a contract %s ends at its term too, chart and restore alike (found by the contract sequences)', (_label, until, before) => {
    const { record, now } = recordAfter(until);
    const end = termEndsAtMs(record) ?? 0;
    expect(stateFromRecord(record, end - 1)).toEqual(before);
    expect(stateFromRecord(record, end)).toBe('contrat-termine');
    const actor = restoreActor(record, now).start();
    actor.send({ type: 'TICK', now: end - 1 });
    expect(actor.getSnapshot().value).toEqual(before);
    actor.send({ type: 'TICK', now: end });
    expect(actor.getSnapshot().value).toBe('contrat-termine');
    actor.stop();
    // Nothing is paid for a contract that is over; a new one starts at the plans.
    expect(send(record, 'app', end + 1)).toMatchObject({ allowed: false, state: 'contrat-termine' });
    expect(send(record, 'renew', end + 1)).toMatchObject({ allowed: true, state: 'formules' });
  });

  it('nothing is paid or withdrawn after the end', () => {
    const { record } = recordAfter('meeting_mm');
    const after = (termEndsAtMs(record) ?? 0) + 1;
    for (const context of ['app', 'sub', 'withdraw', 'renounce'] as const)
      expect(send(record, context, after)).toMatchObject({ allowed: false, state: 'contrat-termine' });
  });
});

describe('renewal: a new contract, data kept', () => {
  const ended: [string, () => { record: OnboardingRecord; at: number }][] = [
    [
      'renonce',
      () => {
        const { record, signedAt } = recordAfter('sub_date');
        const d = send(record, 'renounce', signedAt + DAY_MS);
        if (!d.allowed) throw new Error('refused');
        return { record: d.record, at: signedAt + 2 * DAY_MS };
      },
    ],
    [
      'retracte',
      () => {
        const { record, signedAt } = recordAfter('sub');
        const d = send(record, 'withdraw', signedAt + 10 * DAY_MS);
        if (!d.allowed) throw new Error('refused');
        return { record: d.record, at: signedAt + 11 * DAY_MS };
      },
    ],
    [
      'contrat-termine',
      () => {
        const { record } = recordAfter('meeting_mm');
        return { record, at: (termEndsAtMs(record) ?? 0) + DAY_MS };
      },
    ],
  ];

  it.each(ended)('from %s, renew goes back to the plans with profile and questionnaire kept', (state, build) => {
    const { record, at } = build();
    expect(stateFromRecord(record, at)).toBe(state);
    const decision = send(record, 'renew', at);
    expect(decision).toMatchObject({ allowed: true, state: 'formules' });
    if (!decision.allowed) return;
    const next = decision.record;
    expect(next).toMatchObject({
      profileCompleted: true,
      questionnaireCompleted: true,
      formPersonnalInfoCompleted: true,
      sensitiveDataConsentAt: record.sensitiveDataConsentAt,
      selectedPlanId: null,
      subscriptionDate: null,
      applicationFeesPaid: false,
      subscriptionFeesPaid: false,
      matchmakingMeetingDone: false,
      onboardingMeetingDone: false,
    });
    expect(next.contractRenouncedAt ?? null).toBeNull();
    expect(next.contractWithdrawnAt ?? null).toBeNull();
    expect(stateFromRecord(next, at)).toBe('formules');
    // The stored form (JSON) drops the cleared keys and still validates.
    expect(v.parse(onboardingRecordSchema, JSON.parse(JSON.stringify(next)))).toEqual(next);
  });

  it('is refused while a contract runs', () => {
    const { record, now } = recordAfter('meeting_mm');
    expect(send(record, 'renew', now)).toMatchObject({ allowed: false, state: 'membre-actif' });
  });

  it('the chart itself (an actor) follows renew from renonce', () => {
    const { record, signedAt } = recordAfter('sub_date');
    const d = send(record, 'renounce', signedAt + DAY_MS);
    if (!d.allowed) throw new Error('refused');
    const actor = createActor(onboardingMachine, { snapshot: d.snapshot, input: { record: d.record, now: signedAt + DAY_MS } }).start();
    const at = signedAt + 2 * DAY_MS;
    actor.send({ type: 'RENEW_CONTRACT', now: at, update: parsed({ context: 'renew' }, at) } as never);
    expect(actor.getSnapshot().value).toBe('formules');
    actor.stop();
  });
});

describe('termination for a legitimate reason (R224-2, decision 119)', () => {
  /** An active member who asked to terminate at `at` (default: 60 days after signature). */
  function requested(days = 60) {
    const { record, signedAt } = recordAfter('meeting_mm');
    const at = signedAt + days * DAY_MS;
    const d = send(record, 'terminate', at);
    if (!d.allowed) throw new Error('refused');
    return { record: d.record, signedAt, at, state: d.state };
  }

  it('an active member asks: resiliation-demandee, the instant recorded, and a restore agrees', () => {
    const { record, at, state } = requested();
    expect(state).toBe('resiliation-demandee');
    expect(record.terminationRequestedAt).toBe(toIsoInstant(at));
    expect(record.terminatedAt ?? null).toBeNull();
    expect(stateFromRecord(record, at)).toBe('resiliation-demandee');
    expect(v.parse(onboardingRecordSchema, JSON.parse(JSON.stringify(record)))).toEqual(record);
  });

  it('is open to an active member during the 14 days too, and to no one before activation', () => {
    const early = recordAfter('meeting_mm', { renounce: true });
    expect(send(early.record, 'terminate', early.now)).toMatchObject({ allowed: true, state: 'resiliation-demandee' });
    const paying = recordAfter('sub');
    expect(send(paying.record, 'terminate', paying.now)).toMatchObject({ allowed: false });
    const signed = recordAfter('sub_date');
    expect(send(signed.record, 'terminate', signed.signedAt + DAY_MS)).toMatchObject({ allowed: false });
  });

  it('is refused once the term is over, and twice in a row', () => {
    const { record } = recordAfter('meeting_mm');
    const end = termEndsAtMs(record) ?? 0;
    expect(send(record, 'terminate', end)).toMatchObject({ allowed: false, state: 'contrat-termine' });
    expect(send(record, 'terminate', end - 1)).toMatchObject({ allowed: true });
    const pending = requested();
    expect(send(pending.record, 'terminate', pending.at + 1)).toMatchObject({ allowed: false, state: 'resiliation-demandee' });
  });

  it('staff accept for this member only: resilie, terminated at that instant', () => {
    const { record, at } = requested();
    const other = decideUpdate(record, parsed({ context: 'terminate_ok', uid: 'membre-9999' }, at + DAY_MS), at + DAY_MS);
    expect(other).toMatchObject({ allowed: false, state: 'resiliation-demandee' });
    const d = send(record, 'terminate_ok', at + DAY_MS);
    expect(d).toMatchObject({ allowed: true, state: 'resilie' });
    if (!d.allowed) return;
    expect(d.record.terminatedAt).toBe(toIsoInstant(at + DAY_MS));
    expect(stateFromRecord(d.record, at + 400 * DAY_MS)).toBe('resilie');
    // Nothing else applies to a terminated contract but a renewal.
    for (const context of ['terminate', 'terminate_ok', 'terminate_no', 'withdraw', 'sub'] as const)
      expect(send(d.record, context, at + 2 * DAY_MS)).toMatchObject({ allowed: false, state: 'resilie' });
  });

  it('staff refuse: back to membre-actif, the request cleared, the member may ask again', () => {
    const { record, at } = requested();
    const d = send(record, 'terminate_no', at + DAY_MS);
    expect(d).toMatchObject({ allowed: true, state: 'membre-actif' });
    if (!d.allowed) return;
    expect(d.record.terminationRequestedAt ?? null).toBeNull();
    expect(stateFromRecord(d.record, at + DAY_MS)).toBe('membre-actif');
    expect(send(d.record, 'terminate', at + 2 * DAY_MS)).toMatchObject({ allowed: true, state: 'resiliation-demandee' });
  });

  it('a pending request outlives the term (staff still decide); a refusal after the term ends the contract', () => {
    const { record } = requested(300);
    const after = (termEndsAtMs(record) ?? 0) + DAY_MS;
    expect(stateFromRecord(record, after)).toBe('resiliation-demandee');
    expect(send(record, 'terminate_no', after)).toMatchObject({ allowed: true, state: 'contrat-termine' });
    expect(send(record, 'terminate_ok', after)).toMatchObject({ allowed: true, state: 'resilie' });
  });

  describe('a letter, registered or not, recorded by staff (decision 189)', () => {
    const letter = (record: OnboardingRecord, receivedOn: string, at: number, uid = member.id) =>
      decideUpdate(record, parsed({ ...samplePayloads(member, at).terminate_letter, uid, receivedOn }, at), at);

    it('counts from the first instant (Paris) of the day it was received, and is then reviewed as any request', () => {
      const { record, signedAt } = recordAfter('meeting_mm');
      const at = signedAt + 60 * DAY_MS;
      const receivedOn = parisDayOf(at - 3 * DAY_MS);
      const d = letter(record, receivedOn, at);
      expect(d).toMatchObject({ allowed: true, state: 'resiliation-demandee' });
      if (!d.allowed) return;
      expect(d.record.terminationRequestedAt).toBe(toIsoInstant(parisDayStartMs(receivedOn)));
      expect(stateFromRecord(d.record, at)).toBe('resiliation-demandee');
      expect(send(d.record, 'terminate_ok', at + DAY_MS)).toMatchObject({ allowed: true, state: 'resilie' });
      expect(send(d.record, 'terminate', at + DAY_MS)).toMatchObject({ allowed: false, state: 'resiliation-demandee' });
    });

    it('is refused for another member, for a day not after the signature or in the future, and while a request waits', () => {
      const { record, signedAt } = recordAfter('meeting_mm');
      const at = signedAt + 60 * DAY_MS;
      expect(letter(record, parisDayOf(at), at, 'membre-9999')).toMatchObject({ allowed: false, state: 'membre-actif' });
      expect(letter(record, parisDayOf(signedAt), at)).toMatchObject({ allowed: false });
      expect(letter(record, parisDayOf(signedAt + DAY_MS), at)).toMatchObject({ allowed: true });
      expect(letter(record, parisDayOf(at), at)).toMatchObject({ allowed: true });
      // Tomorrow in Paris: refused by the schema (the date) before the chart is asked.
      expect(parseUpdate({ ...samplePayloads(member, at).terminate_letter, receivedOn: parisDayOf(at + DAY_MS) }, at).success).toBe(false);
      const pending = requested();
      expect(letter(pending.record, parisDayOf(pending.at), pending.at + 1)).toMatchObject({
        allowed: false,
        state: 'resiliation-demandee',
      });
    });

    it('staff only: a member cannot record a letter', async () => {
      const { updateContexts } = await import('#machines/onboarding/update-contexts.ts');
      expect(updateContexts.terminate_letter).toMatchObject({ staffOnly: true });
    });
  });

  it('a member cannot decide, staff cannot ask: the table says who sends what', async () => {
    const { updateContexts } = await import('#machines/onboarding/update-contexts.ts');
    expect(updateContexts.terminate).toMatchObject({ memberOnly: true, staffOnly: false });
    expect(updateContexts.terminate_ok).toMatchObject({ staffOnly: true });
    expect(updateContexts.terminate_no).toMatchObject({ staffOnly: true });
  });

  it('renew from resilie: a new contract, the termination cleared', () => {
    const { record, at } = requested();
    const ok = send(record, 'terminate_ok', at + DAY_MS);
    if (!ok.allowed) throw new Error('refused');
    const d = send(ok.record, 'renew', at + 2 * DAY_MS);
    expect(d).toMatchObject({ allowed: true, state: 'formules' });
    if (!d.allowed) return;
    expect(d.record.terminationRequestedAt ?? null).toBeNull();
    expect(d.record.terminatedAt ?? null).toBeNull();
  });

  it('the price is reduced pro rata of the days elapsed until the request; the rest of what was paid is refunded', () => {
    const signedAtMs = T0;
    const endsAtMs = T0 + 365 * DAY_MS;
    // Paid in full: 169 € + 1 020 €; asked after 73 days (a fifth of the term): 4/5 of the price back.
    const full = terminationRefundCents({
      paidCents: 118_900,
      contractPriceCents: 118_900,
      signedAtMs,
      endsAtMs,
      requestedAtMs: T0 + 73 * DAY_MS + 3_600_000,
    });
    expect(full).toEqual({ refundCents: 118_900 - 23_780, keptCents: 23_780, elapsedDays: 73, termDays: 365 });
    // Monthly plan, 169 € + first instalment of 85 €: the days used cost more than was paid: nothing back.
    expect(
      terminationRefundCents({ paidCents: 25_400, contractPriceCents: 118_900, signedAtMs, endsAtMs, requestedAtMs: T0 + 100 * DAY_MS })
        .refundCents,
    ).toBe(0);
  });

  it('the refund is due two calendar months after the request (Paris), clamped to the month’s end', () => {
    expect(toIsoInstant(terminationRefundDueByMs(Date.parse('2026-03-10T09:30:00.000Z')))).toBe('2026-05-10T08:30:00.000Z'); // 10:30 Paris both times
    // 31 December 2026 10:00 Paris → 28 February 2027 10:00 Paris.
    expect(toIsoInstant(terminationRefundDueByMs(Date.parse('2026-12-31T09:00:00.000Z')))).toBe('2027-02-28T09:00:00.000Z');
    // Winter to summer time: 15 February 12:00 Paris (11:00 UTC) → 15 April 12:00 Paris (10:00 UTC).
    expect(toIsoInstant(terminationRefundDueByMs(Date.parse('2026-02-15T11:00:00.000Z')))).toBe('2026-04-15T10:00:00.000Z');
  });
});
