import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, createActor } from 'xstate';
import { onboardingMachine } from '#machines/onboarding/onboarding.machine.ts';
import { samplePayloads } from '#tests/support/happy-path.ts';
import { DAY_MS } from '#machines/onboarding/instant.ts';
import { paymentLinkUrl } from '#machines/onboarding/payment-links.ts';
import { emptyRecord, type OnboardingRecord, onboardingRecordSchema } from '#machines/onboarding/record.ts';
import { decideUpdate, restoreActor, restoreSnapshot, stateFromRecord, stateValueOf } from '#machines/onboarding/restore.ts';
import { type OnboardingStateValue, pathOf, stateKey, stepOf, steps } from '#machines/onboarding/steps.ts';
import { applyUpdate, parseUpdate, toMachineEvent, type UpdatePayload } from '#machines/onboarding/update-contexts.ts';

const SIGNED = '2025-02-01T10:00:00.000Z';
const signedMs = Date.parse(SIGNED);
/**
 * Signed on Saturday 1 Feb 2025 (11:00 Paris). In civil days (decision 165) the 7th day, Saturday
 * 8 Feb, moves to Monday 10 Feb: payment opens Tuesday 11 Feb at 00:00 Paris. The 14th day,
 * Saturday 15 Feb, moves to Monday 17 Feb: the withdrawal period is over on Tuesday 18 Feb at 00:00.
 */
const PAYMENT_OPENS = Date.parse('2025-02-11T00:00:00+01:00');
const WITHDRAWAL_ENDS = Date.parse('2025-02-18T00:00:00+01:00');
const member = { id: 'membre-0001', email: 'amina@example.fr', gender: 'homme' as const };
const base = emptyRecord(member.id, member.email, member.gender);

/** Records at each point of the journey, cumulative. */
const profile = { ...base, profileCompleted: true, sensitiveDataConsentAt: '2025-01-20T10:00:00.000Z' };
const questionnaire = { ...profile, questionnaireCompleted: true };
const confirmed = { ...questionnaire, formPersonnalInfoCompleted: true };
const planChosen = { ...confirmed, selectedPlanId: 'plan_horizon_month' as const, renouncedWithdrawalRight: false };
const informed = { ...planChosen, preContractInfoAcknowledged: true };
const dateChosen = { ...informed, onboardingMeetingDateSelected: true, onboardingMeetingDate: '2025-01-25T10:00:00.000Z' };
const reserved = { ...dateChosen, onboardingMeetingReserved: true };
const met = { ...reserved, onboardingMeetingDone: true };
const contractFilled = { ...met, subscriptionContractFormCompleted: true };
const signed = { ...contractFilled, subscriptionDate: SIGNED };
const feePaid = { ...signed, applicationFeesPaid: true };
const subscriptionOnly = { ...signed, subscriptionFeesPaid: true };
const paid = { ...feePaid, subscriptionFeesPaid: true };
const active = { ...paid, matchmakingMeetingDone: true };

describe('stateFromRecord', () => {
  it.each<[string, OnboardingRecord, number, OnboardingStateValue]>([
    ['new member', base, signedMs, 'profil'],
    ['profile saved', profile, signedMs, 'questionnaire-profil'],
    ['questionnaire saved, not confirmed', questionnaire, signedMs, 'questionnaire-profil'],
    [
      'confirmed without questionnaire (inconsistent) stays on step 2',
      { ...profile, formPersonnalInfoCompleted: true },
      signedMs,
      'questionnaire-profil',
    ],
    ['steps 1-2 confirmed', confirmed, signedMs, 'formules'],
    ['plan chosen', planChosen, signedMs, 'informations-et-tarifs'],
    ['pre-contract information read', informed, signedMs, { 'prendre-un-rendez-vous': 'choix-creneau' }],
    ['meeting date chosen', dateChosen, signedMs, { 'prendre-un-rendez-vous': 'confirmation' }],
    ['meeting reserved', reserved, signedMs, 'attente-entretien-personnalise'],
    ['meeting done', met, signedMs, { 'attente-contrat': 'formulaire-contrat' }],
    ['contract form filled', contractFilled, signedMs, { 'attente-contrat': 'signature' }],
    ['signed, day 0', signed, signedMs, { 'attente-contrat': 'delai-renonciation' }],
    ['signed, 7 × 24 hours later (the 7th day is a Saturday)', signed, signedMs + 7 * DAY_MS, { 'attente-contrat': 'delai-renonciation' }],
    ['signed, 1 ms before the payment opens', signed, PAYMENT_OPENS - 1, { 'attente-contrat': 'delai-renonciation' }],
    ['signed, Tuesday 00:00 Paris: the payment step', signed, PAYMENT_OPENS, 'frais-de-dossier'],
    ['file fee paid, subscription not yet', feePaid, signedMs + 10 * DAY_MS, 'frais-de-dossier'],
    ['subscription paid, file fee not yet', subscriptionOnly, signedMs + 10 * DAY_MS, 'frais-de-dossier'],
    [
      'a record paid before day 7 (impossible since decision 105) still waits for the payment to open',
      paid,
      PAYMENT_OPENS - 1,
      { 'attente-contrat': 'delai-renonciation' },
    ],
    [
      'file fee paid before the contract (the order before decision 105): the next step is still pre-contract information',
      { ...planChosen, applicationFeesPaid: true },
      signedMs,
      'informations-et-tarifs',
    ],
    [
      'signed and renounced, day 3: still no payment',
      { ...signed, renouncedWithdrawalRight: true },
      signedMs + 3 * DAY_MS,
      { 'attente-contrat': 'delai-renonciation' },
    ],
    ['paid, day 13', paid, signedMs + 13 * DAY_MS, { attente: 'delai-retractation' }],
    ['paid, 14 × 24 hours later (the 14th day is a Saturday)', paid, signedMs + 14 * DAY_MS, { attente: 'delai-retractation' }],
    ['paid, 1 ms before the withdrawal period ends', paid, WITHDRAWAL_ENDS - 1, { attente: 'delai-retractation' }],
    ['paid, withdrawal period over', paid, WITHDRAWAL_ENDS, { attente: 'entretien-matchmaking' }],
    ['paid and renounced, payment open', { ...paid, renouncedWithdrawalRight: true }, PAYMENT_OPENS, { attente: 'entretien-matchmaking' }],
    ['matchmaking meeting done', active, signedMs + 20 * DAY_MS, 'membre-actif'],
    ['disabled new member', { ...base, disabled: true }, signedMs, 'desactive'],
    ['disabled active member', { ...active, disabled: true }, signedMs, 'desactive'],
  ])('%s → %j', (_label, record, now, expected) => {
    expect(stateFromRecord(record, now)).toEqual(expected);
  });

  it('gives the same state for a record that travelled as JSON with dates written with an offset', () => {
    const server = paid;
    const browser = JSON.parse(JSON.stringify({ ...paid, subscriptionDate: '2025-02-01T11:00:00+01:00' })) as OnboardingRecord;
    for (const now of [signedMs, signedMs + 13 * DAY_MS, WITHDRAWAL_ENDS - 1, WITHDRAWAL_ENDS]) {
      expect(stateFromRecord(browser, now)).toEqual(stateFromRecord(server, now));
    }
  });
});

describe('restoreSnapshot and restoreActor', () => {
  it('settle the chart in the record state, with the record and clock as context', () => {
    const snapshot = restoreSnapshot(signed, signedMs + 10 * DAY_MS);
    expect(snapshot.value).toBe('frais-de-dossier');
    expect(snapshot.context).toEqual({ ...signed, now: signedMs + 10 * DAY_MS });
    expect(snapshot.status).toBe('active');
  });

  it('a restored actor continues from there', () => {
    const now = signedMs + 10 * DAY_MS;
    const actor = restoreActor(feePaid, now).start();
    const parsed = parseUpdate(samplePayloads(member, now).sub, now);
    if (!parsed.success) throw new Error('refused');
    actor.send(toMachineEvent(parsed.update, now));
    expect(stateValueOf(actor.getSnapshot())).toEqual({ attente: 'delai-retractation' });
    expect(actor.getSnapshot().context.subscriptionFeesPaid).toBe(true);
    actor.stop();
  });

  it('a restored waiting screen moves on with TICK', () => {
    const actor = restoreActor(paid, signedMs + 10 * DAY_MS).start();
    actor.send({ type: 'TICK', now: WITHDRAWAL_ENDS });
    expect(actor.getSnapshot().value).toEqual({ attente: 'entretien-matchmaking' });
    actor.stop();
  });
});

describe('decideUpdate (what the BFF asks the chart)', () => {
  const parse = (body: unknown, now: number): UpdatePayload => {
    const parsed = parseUpdate(body, now);
    if (!parsed.success) throw new Error('refused');
    return parsed.update;
  };

  it('an allowed update gives the new record (the same as apply) and state', () => {
    const now = signedMs;
    const update = parse({ context: 'sel_plan', id: 'plan_serenity_year', renounce: true }, now);
    const decision = decideUpdate(confirmed, update, now);
    expect(decision).toMatchObject({ allowed: true, state: 'informations-et-tarifs' });
    expect(decision.allowed && decision.record).toEqual(applyUpdate(confirmed, update, now));
  });

  it('a refused update names the current state and gives no record', () => {
    const now = signedMs + 3 * DAY_MS;
    const decision = decideUpdate(signed, parse(samplePayloads(member, now).sub, now), now);
    expect(decision).toEqual({ allowed: false, state: { 'attente-contrat': 'delai-renonciation' } });
  });

  it.each([
    ['plan chosen', planChosen, signedMs],
    ['meeting held', met, signedMs],
    ['signed', signed, signedMs],
    ['signed, 7 × 24 hours later', signed, signedMs + 7 * DAY_MS],
    ['signed, 1 ms before the payment opens', signed, PAYMENT_OPENS - 1],
    ['signed and renounced, day 6', { ...signed, renouncedWithdrawalRight: true }, signedMs + 6 * DAY_MS],
  ])('no payment before signature + 7 days: %s', (_label, record, now) => {
    for (const body of [samplePayloads(member, now).app, samplePayloads(member, now).sub]) {
      expect(decideUpdate(record, parse(body, now), now).allowed).toBe(false);
    }
  });

  it('the file fee and the subscription are both accepted once payment opens, in either order', () => {
    const now = PAYMENT_OPENS;
    const s = samplePayloads(member, now);
    const first = decideUpdate(signed, parse(s.app, now), now);
    expect(first).toMatchObject({ allowed: true, state: 'frais-de-dossier' });
    const again = first.allowed ? decideUpdate(first.record, parse(s.app, now), now) : null;
    expect(again?.allowed).toBe(false);
    const second = first.allowed ? decideUpdate(first.record, parse(s.sub, now), now) : null;
    expect(second).toMatchObject({ allowed: true, state: { attente: 'delai-retractation' } });
    const reversed = decideUpdate(signed, parse(s.sub, now), now);
    expect(reversed).toMatchObject({ allowed: true, state: 'frais-de-dossier' });
  });

  it('the onboarding meeting cannot be marked held before its start', () => {
    const start = Date.parse(reserved.onboardingMeetingDate);
    const held = (now: number) => parse({ context: 'onb_meet_ok', status: true, uid: member.id }, now);
    expect(decideUpdate(reserved, held(start - 1), start - 1)).toEqual({ allowed: false, state: 'attente-entretien-personnalise' });
    expect(decideUpdate(reserved, held(start), start)).toMatchObject({ allowed: true, state: { 'attente-contrat': 'formulaire-contrat' } });
    // Nor missed (issue 63): only once its start has come (the booking then goes back to step 5).
    const missed = (now: number) => parse({ context: 'onb_meet_ok', status: false, uid: member.id }, now);
    expect(decideUpdate(reserved, missed(start - 1), start - 1)).toEqual({ allowed: false, state: 'attente-entretien-personnalise' });
    expect(decideUpdate(reserved, missed(start), start)).toMatchObject({
      allowed: true,
      state: { 'prendre-un-rendez-vous': 'choix-creneau' },
    });
  });

  it('a step cannot be opened out of order', () => {
    const decision = decideUpdate(base, parse({ context: 'pre_contract_ok', acknowledged: true }, signedMs), signedMs);
    expect(decision).toEqual({ allowed: false, state: 'profil' });
  });
});

describe('the record schema', () => {
  it('accepts an empty and a complete record', () => {
    expect(v.safeParse(onboardingRecordSchema, base).success).toBe(true);
    expect(v.safeParse(onboardingRecordSchema, active).success).toBe(true);
  });

  it.each([
    ['unknown plan', { selectedPlanId: 'plan_gold' }],
    ['date without zone', { subscriptionDate: '2025-02-01T10:00:00' }],
    ['unknown gender', { gender: 'autre' }],
    ['extra field', { role: 'admin' }],
    ['missing field', { disabled: undefined }],
  ])('refuses a record with %s', (_label, patch) => {
    expect(v.safeParse(onboardingRecordSchema, { ...active, ...patch }).success).toBe(false);
  });
});

describe('steps', () => {
  it('numbers the nine screens 1 to 9 with their routes', () => {
    expect(steps.map((s) => `${s.number} ${s.path}`)).toEqual([
      '1 /mon-compte/inscription/profil',
      '2 /mon-compte/inscription/questionnaire-profil',
      '3 /mon-compte/inscription/formules',
      '4 /mon-compte/inscription/informations-et-tarifs',
      '5 /mon-compte/inscription/prendre-un-rendez-vous',
      '6 /mon-compte/inscription/attente-entretien-personnalise',
      '7 /mon-compte/inscription/attente-contrat',
      '8 /mon-compte/inscription/frais-de-dossier',
      '9 /mon-compte/inscription/attente',
    ]);
  });

  it.each<[OnboardingStateValue, number | null, string, string]>([
    ['profil', 1, '/mon-compte/inscription/profil', 'profil'],
    [{ 'attente-contrat': 'delai-renonciation' }, 7, '/mon-compte/inscription/attente-contrat', 'attente-contrat.delai-renonciation'],
    ['frais-de-dossier', 8, '/mon-compte/inscription/frais-de-dossier', 'frais-de-dossier'],
    [{ attente: 'delai-retractation' }, 9, '/mon-compte/inscription/attente', 'attente.delai-retractation'],
    ['membre-actif', null, '/mon-compte', 'membre-actif'],
    ['desactive', null, '/', 'desactive'],
  ])('%j → step %s, %s, %s', (value, number, path, key) => {
    expect(stepOf(value)?.number ?? null).toBe(number);
    expect(pathOf(value)).toBe(path);
    expect(stateKey(value)).toBe(key);
  });
});

describe('payment links', () => {
  it('adds the member reference, e-mail, locale and promo code', () => {
    const url = new URL(
      paymentLinkUrl('https://buy.stripe.com/test_abc', { memberId: 'membre-0001', email: 'a+b@example.fr', promoCode: 'BIENVENUE' }),
    );
    expect(url.origin + url.pathname).toBe('https://buy.stripe.com/test_abc');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_reference_id: 'membre-0001',
      prefilled_email: 'a+b@example.fr',
      locale: 'fr',
      prefilled_promo_code: 'BIENVENUE',
    });
    expect(url.search).toContain('prefilled_email=a%2Bb%40example.fr');
  });

  it('adds no promo code without coupon', () => {
    const url = new URL(paymentLinkUrl('https://buy.stripe.com/test_abc', { memberId: 'm1', email: 'a@example.fr' }));
    expect(url.searchParams.has('prefilled_promo_code')).toBe(false);
  });

  it('refuses a member id Stripe would silently drop, and a malformed promo code', () => {
    expect(() => paymentLinkUrl('https://buy.stripe.com/x', { memberId: 'id with spaces', email: 'a@example.fr' })).toThrow();
    expect(() => paymentLinkUrl('https://buy.stripe.com/x', { memberId: 'm1', email: 'a@example.fr', promoCode: 'A-1' })).toThrow();
  });
});

describe('the inert actor of a decision', () => {
  it('starts without input instead of failing: xstate’s transition() makes one on every decision', () => {
    // As xstate's transition() makes it: no input (its types require one of the product's own actors).
    const inert: AnyStateMachine = onboardingMachine;
    const actor = createActor(inert);
    expect(actor.getSnapshot().status).toBe('active');
    expect(actor.getSnapshot().error).toBeUndefined();
  });
});
