import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { checkoutSessions, members, onboardingEvents } from '#bff/db/schema.ts';
import { eventCount } from '#bff/onboarding/apply-update.ts';
import { writePayInFull } from '#bff/onboarding/plan-settings.ts';
import { happyPath, samplePayloads } from '#tests/support/happy-path.ts';
import { DAY_MS } from '#machines/onboarding/instant.ts';
import { deadlinesOfSignature } from '#machines/onboarding/legal-deadlines.ts';
import { expectedAmountCents } from '#machines/onboarding/plans.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';
import { decideUpdate, stateFromRecord } from '#machines/onboarding/restore.ts';
import { stateKey } from '#machines/onboarding/steps.ts';
import { contextNames, definitionOf, parseUpdate } from '#machines/onboarding/update-contexts.ts';
import { walkToPayment } from '#tests/support/onboarding-walk.ts';
import { signInStaff, type StaffSession, startWithStaffForSuite } from '#tests/support/staff.ts';
import type { TestAgent, TestProduct } from '#tests/support/test-product.ts';
import { signContract } from '#tests/support/contract-signature.ts';
import { signUp } from '#tests/support/sign-up.ts';

const clock = fakeClock(new Date());
let product: TestProduct;
/** Signed in with its TOTP before any test moves the clock (the code is computed on the real time). */
let staff: StaffSession;
startWithStaffForSuite(clock, (started) => ({ product, staff } = started));

let n = 0;
async function newMember(gender: 'homme' | 'femme' = 'femme') {
  n += 1;
  const agent = product.agent();
  const email = `parcours.${n}.${Date.now()}@example.fr`;
  const response = await signUp(agent, { context: 'init', email, role: gender, password: 'bismillah-2026' });
  expect(response.status).toBe(201);
  const settings = await agent.json<{ id: string; state: string; version: number }>(agent.get('/api/v1/user/settings'));
  return { agent, id: settings.id, email, gender };
}

async function stored(id: string) {
  const [row] = await product.database.db.select().from(members).where(eq(members.id, id));
  if (!row) throw new Error('member missing');
  return row;
}

/** What a signed Stripe webhook would have recorded for this member's payment. */
async function recordPaidSession(csid: string, memberId: string, offerId: string, amount: number) {
  await product.database.db
    .insert(checkoutSessions)
    .values({ id: csid, memberId, offerId, amountTotal: amount, currency: 'eur', status: 'complete', paymentStatus: 'paid' });
}

async function send(agent: TestAgent, body: unknown) {
  const response = await agent.post('/api/v1/user/update', body);
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected field by field in the assertions
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('POST /api/v1/user/update: the server is the authority', () => {
  it('walks the canonical path to active member; every event the chart refuses is refused with 409 and changes nothing', async () => {
    const member = await newMember();
    const staff = await signInStaff(product);
    await staff.passTotp();
    const start = clock.now().getTime();
    const steps = happyPath(member, { start });
    for (const step of steps) {
      clock.set(new Date(step.now));
      // Every context the chart does not allow right now is refused, and nothing changes.
      const before = await stored(member.id);
      const record = before.onboarding as OnboardingRecord;
      const samples = samplePayloads(member, step.now);
      for (const context of contextNames) {
        const parsed = parseUpdate(samples[context], step.now);
        if (!parsed.success) continue;
        if (decideUpdate(record, parsed.update, step.now).allowed) continue;
        const answer = await send(member.agent, samples[context]);
        // `sub_date` is never accepted from the browser: only the code route signs (decision 109);
        // a termination is asked with its own form, proof attached (decision 189).
        const ownRoute = context === 'sub_date' || context === 'terminate' || context === 'terminate_letter';
        const expected = definitionOf(context).staffOnly || ownRoute ? 403 : 409;
        expect(answer.status, `${context} in ${stateKey(decideUpdate(record, parsed.update, step.now).state)}`).toBe(expected);
        if (expected === 409) expect(answer.body.error.code).toBe('TRANSITION_REFUSED');
      }
      const unchanged = await stored(member.id);
      expect(unchanged.version).toBe(before.version);
      expect(unchanged.onboarding).toEqual(before.onboarding);

      // Then the step itself.
      if (step.context === 'app' || step.context === 'sub') {
        const offer = step.context === 'app' ? 'file_fee' : (record.selectedPlanId as string);
        const amount = expectedAmountCents(offer as 'file_fee', { couponApplied: step.context === 'app' && record.couponApplied });
        await recordPaidSession(String(step.body.csid), member.id, offer, amount);
      }
      if (step.context === 'sub_date') {
        // Signed with the one-time code sent by e-mail; the BFF sends `sub_date` (decision 109).
        expect((await send(member.agent, step.body)).status).toBe(403);
        await signContract(member);
        const settings = await member.agent.json<{ state: string }>(member.agent.get('/api/v1/user/settings'));
        expect(settings.state, step.context).toBe(stateKey(step.stateAfter));
      } else if (step.sender === 'member') {
        const answer = await send(member.agent, step.body);
        expect(answer.status, `${step.context}: ${JSON.stringify(answer.body)}`).toBe(200);
        expect(
          answer.body.state,
          `${step.context} at ${new Date(step.now).toISOString()} sub=${answer.body.subscription?.subscriptionDate}`,
        ).toBe(stateKey(step.stateAfter));
      } else {
        // Staff events: the same endpoint, from a staff session that passed its TOTP (aal2).
        const answer = await send(staff.agent, step.body);
        expect(answer.status, `${step.context}: ${JSON.stringify(answer.body)}`).toBe(200);
        expect(answer.body.state).toBe(stateKey(step.stateAfter));
      }
      const settings = await member.agent.json<{ state: string; onboarding: OnboardingRecord }>(member.agent.get('/api/v1/user/settings'));
      // The browser restores the same chart from the record the settings carry: same state.
      expect(stateKey(stateFromRecord(settings.onboarding, clock.now().getTime()))).toBe(settings.state);
      expect(settings.state, `settings after ${step.context} at ${new Date(step.now).toISOString()} ${JSON.stringify(settings)}`).toBe(
        stateKey(step.stateAfter),
      );
    }
    const final = await stored(member.id);
    expect(stateKey(steps.at(-1)!.stateAfter)).toBe('membre-actif');
    const log = await product.database.db
      .select()
      .from(onboardingEvents)
      .where(eq(onboardingEvents.memberId, member.id))
      .orderBy(onboardingEvents.id);
    expect(log.map((e) => e.context)).toEqual(steps.map((s) => s.context));
    expect(final.version).toBe(log.length);
    // Each event starts where the previous one left the member; only time (the legal periods)
    // moves a member without an event: between sub-states of a step, and from the 7-day
    // renunciation period to the payment step (decision 105).
    const step = (key: string | undefined) => (key === 'attente-contrat.delai-renonciation' ? 'frais-de-dossier' : key?.split('.')[0]);
    for (let i = 1; i < log.length; i += 1) expect(step(log[i]?.fromState)).toBe(step(log[i - 1]?.toState));
    // No payment event was accepted before the renunciation period's end (civil days, decision 165),
    // nor before 7 × 24 hours after the signature.
    const signed = log.find((e) => e.context === 'sub_date');
    const signedAt = signed?.createdAt.getTime() ?? Number.POSITIVE_INFINITY;
    for (const payment of log.filter((e) => e.context === 'app' || e.context === 'sub')) {
      expect(payment.createdAt.getTime() - signedAt).toBeGreaterThanOrEqual(7 * DAY_MS);
      expect(payment.createdAt.getTime()).toBeGreaterThanOrEqual(deadlinesOfSignature(signedAt).paymentOpensAtMs);
    }
  });

  it('refuses staff-only contexts from a member, and a member naming another member', async () => {
    const a = await newMember();
    const b = await newMember('homme');
    const staffOnly = await send(a.agent, { context: 'onb_meet_ok', status: true, uid: a.id });
    expect(staffOnly.status).toBe(403);
    const other = await send(a.agent, { context: 'onb_meet_resa', status: true, uid: b.id });
    expect(other.status).toBe(403);
    expect((await stored(b.id)).version).toBe(0);
  });

  it('offers only the active pay-in-full plans (the staff setting), refusing the others', async () => {
    const member = await newMember();
    const sample = samplePayloads(member, clock.now().getTime());
    for (const body of [sample.profil, sample.questionnaire, sample.form_per_inf])
      expect((await send(member.agent, body)).status).toBe(200);
    await writePayInFull(product.database.db, 'cashback', clock.now());
    const inactive = await send(member.agent, { context: 'sel_plan', id: 'plan_serenity_year', renounce: false });
    expect(inactive.status).toBe(409);
    expect(inactive.body.error.code).toBe('PLAN_NOT_OFFERED');
    // Refused once the UPDATE has answered (decision 141): rolled back, its event with it.
    expect((await stored(member.id)).version).toBe(3);
    expect(await eventCount(product.database.db, member.id)).toBe(3);
    await writePayInFull(product.database.db, 'cash', clock.now());
    expect((await send(member.agent, { context: 'sel_plan', id: 'plan_serenity_year', renounce: false })).status).toBe(200);
    await writePayInFull(product.database.db, 'cashback', clock.now());
  });

  it('refuses a bad payload with field-level French issues and changes nothing', async () => {
    const member = await newMember();
    const bad = await send(member.agent, { context: 'profil', firstName: '', sensitiveDataConsent: false });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    expect(bad.body.error.issues.length).toBeGreaterThan(0);
    const unknown = await send(member.agent, { context: 'pirate' });
    expect(unknown.status).toBe(400);
    expect((await stored(member.id)).version).toBe(0);
  });

  it('accepts a payment only for a recorded, paid session of this member, offer and amount, once', async () => {
    const member = await newMember();
    const other = await newMember('homme');
    await walkToPayment({ member, staff, clock });
    const fee = expectedAmountCents('file_fee', { couponApplied: false });
    const attempts: [string, () => Promise<void>][] = [
      ['cs_test_unknown_000001', async () => {}],
      ['cs_test_foreign_000001', () => recordPaidSession('cs_test_foreign_000001', other.id, 'file_fee', fee)],
      ['cs_test_wrongoffer_0001', () => recordPaidSession('cs_test_wrongoffer_0001', member.id, 'plan_serenity_month', fee)],
      ['cs_test_wrongamount_001', () => recordPaidSession('cs_test_wrongamount_001', member.id, 'file_fee', 100)],
    ];
    for (const [csid, prepare] of attempts) {
      await prepare();
      const answer = await send(member.agent, { context: 'app', email: member.email, csid });
      expect(answer.status, csid).toBe(402);
      expect(answer.body.error.code).toBe('PAYMENT_NOT_CONFIRMED');
    }
    const signedVersion = (await stored(member.id)).version;
    await recordPaidSession('cs_test_good_00000001', member.id, 'file_fee', fee);
    expect((await send(member.agent, { context: 'app', email: member.email, csid: 'cs_test_good_00000001' })).status).toBe(200);
    expect((await stored(member.id)).version).toBe(signedVersion + 1);
    // The same session cannot confirm anything again, not even the subscription.
    const reused = await send(member.agent, { context: 'sub', email: member.email, csid: 'cs_test_good_00000001' });
    expect(reused.status).toBe(402);
    expect((await stored(member.id)).version).toBe(signedVersion + 1);
  });

  it('serialises concurrent events for one member: no lost update, the log equals the record', async () => {
    const member = await newMember();
    const now = clock.now().getTime();
    const sample = samplePayloads(member, now);
    for (const body of [sample.profil, sample.questionnaire, sample.form_per_inf])
      expect((await send(member.agent, body)).status).toBe(200);
    // 24 simultaneous plan choices / plan resets: each is accepted or refused against the state at its turn.
    const bodies = Array.from({ length: 24 }, (_, i) => (i % 2 === 0 ? sample.sel_plan : sample.sel_plan_res));
    const answers = await Promise.all(bodies.map((body) => send(member.agent, body)));
    const accepted = answers.filter((a) => a.status === 200).length;
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect(accepted).toBeGreaterThan(0);
    const row = await stored(member.id);
    const log = await product.database.db
      .select()
      .from(onboardingEvents)
      .where(eq(onboardingEvents.memberId, member.id))
      .orderBy(onboardingEvents.version);
    expect(row.version).toBe(3 + accepted);
    expect(log.length).toBe(row.version);
    expect(log.map((e) => e.version)).toEqual(Array.from({ length: log.length }, (_, i) => i + 1));
    for (let i = 1; i < log.length; i += 1) expect(log[i]?.fromState).toBe(log[i - 1]?.toState);
    // The log ends where the stored record stands.
    expect(log.at(-1)?.toState).toBe(stateKey(stateFromRecord(row.onboarding as OnboardingRecord, now)));
  });
});
