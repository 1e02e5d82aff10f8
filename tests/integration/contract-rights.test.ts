import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { refunds } from '#bff/db/refunds-schema.ts';
import { runAgencyMailJob } from '#bff/mail/agency-mail-triggers.ts';
import type { AgencyMailSite } from '#bff/mail/agency-mails.ts';
import { DAY_MS, toIsoInstant } from '#machines/onboarding/instant.ts';
import { civilDayText } from '#machines/onboarding/deadline-texts.ts';
import { addCalendarDays, deadlinesOfSignature } from '#machines/onboarding/legal-deadlines.ts';
import { contractEndsAtMs } from '#machines/onboarding/periods.ts';
import { parisDayOf, parisDayStartMs } from '#machines/paris-time.ts';
import { FILE_FEE_CENTS, formatEuros, planById } from '#machines/onboarding/plans.ts';
import { agencyMailsOf, sendUpdate, signUpMember, type UpdateAnswer, walkToPaidContract } from '#tests/support/member-walk.ts';
import { walkOnboarding, walkToPayment } from '#tests/support/onboarding-walk.ts';
import { testAgencySite, type TestProduct } from '#tests/support/test-product.ts';
import { type StaffSession, startWithStaffForSuite } from '#tests/support/staff.ts';

/** Decision 118 over HTTP, with the movable clock: renunciation, withdrawal and refund, the term's end. */

const HOUR_MS = 60 * 60 * 1000;
const clock = fakeClock(new Date());
let product: TestProduct;
let staff: StaffSession;
const site: AgencyMailSite = testAgencySite();
startWithStaffForSuite(clock, (started) => ({ product, staff } = started));

const newMember = () => signUpMember(product, 'droits');

/**
 * The periods are civil days, Paris (decision 165); the tests start from today's clock, so their
 * instants come from the signature: `dayAt(signedAt, 7, 20)` is 20:00 Paris on the 7th day.
 */
function dayAt(signedAt: number, day: number, hour: number): number {
  return parisDayStartMs(addCalendarDays(deadlinesOfSignature(signedAt).signedOnDay, day)) + hour * HOUR_MS;
}
/** Tomorrow at 08:00 Paris: a walk started then signs at about 11:00 Paris, so the 7th and 14th days' evenings come after 7 × 24 and 14 × 24 hours. */
function tomorrowMorning(): Date {
  return new Date(parisDayStartMs(addCalendarDays(parisDayOf(Date.now()), 1)) + 8 * HOUR_MS);
}
/** Day 10 after signature, or just after the payment when a weekend or a holiday put it later. */
function dayTen(signedAt: number): number {
  return Math.max(signedAt + 10 * DAY_MS, deadlinesOfSignature(signedAt).paymentOpensAtMs + HOUR_MS);
}

const outboxOf = (email: string) => agencyMailsOf(product, email);

const refundsOf = (memberId: string) => product.database.db.select().from(refunds).where(eq(refunds.memberId, memberId));

async function staffView(memberId: string) {
  return staff.agent.json<{
    member: { state: string };
    rights: {
      renouncedAt: string | null;
      withdrawnAt: string | null;
      termEndsAt: string | null;
      refunds: { amountCents: number; dueBy: string; done: boolean }[];
    };
  }>(staff.agent.get(`/api/v1/dashboard/members/${memberId}`));
}

describe('renunciation within 7 civil days (L224-91)', () => {
  it('renounces on day 3: the contract is cancelled, nothing can ever be paid, one confirmation mail, staff see the date', async () => {
    clock.set(new Date());
    const member = await newMember();
    const { signedAt } = await walkOnboarding({ member, staff, clock, until: 'sub_date' });
    if (signedAt === null) throw new Error('not signed');
    // Staff cannot renounce for the member.
    expect((await sendUpdate(staff.agent, { context: 'renounce', confirm: true, uid: member.id })).status).toBe(400);
    clock.set(new Date(signedAt + 3 * DAY_MS));
    const renounced = await sendUpdate(member.agent, { context: 'renounce', confirm: true });
    expect(renounced.status, JSON.stringify(renounced.body)).toBe(200);
    expect(renounced.body.state).toBe('renonce');
    // A retry is refused (409, with the state) and mails nothing more.
    const again = await sendUpdate(member.agent, { context: 'renounce', confirm: true });
    expect(again.status).toBe(409);
    expect(again.body.error?.state).toBe('renonce');

    // Day 8 and later: no payment link, no payment event, ever.
    for (const day of [8, 30]) {
      clock.set(new Date(signedAt + day * DAY_MS));
      for (const offer of ['file_fee', 'plan_serenity_month']) {
        const link = await member.agent.get(`/api/v1/user/payment-link?offer=${offer}`);
        expect(link.status, `${offer} day ${day}`).toBe(409);
      }
      const app = await sendUpdate(member.agent, { context: 'app', email: member.email, csid: 'cs_test_jamais_0001' });
      expect(app.status).toBe(409);
    }
    const mails = (await outboxOf(member.email)).filter((m) => m.kind === 'agency-renunciation-confirmed');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toMatch(/vous ne nous devez rien, et rien ne vous sera prélevé/);

    const view = await staffView(member.id);
    expect(view.member.state).toBe('renonce');
    expect(view.rights.renouncedAt).toBe(toIsoInstant(signedAt + 3 * DAY_MS));
    expect(await refundsOf(member.id)).toEqual([]);
  });

  it('a staff session sending renounce for a member gets a French 403', async () => {
    const member = await newMember();
    const answer = await staff.agent.post('/api/v1/user/update', { context: 'renounce', confirm: true });
    expect(answer.status).toBe(403);
    expect(((await answer.json()) as UpdateAnswer).error?.message).toBe('Seul le membre peut exercer ce droit, depuis son espace.');
    expect(member.id).toBeTruthy();
  });

  it('is accepted on the evening of the 7th day, after 7 × 24 hours (civil days: the day of signature is not counted)', async () => {
    clock.set(tomorrowMorning());
    const member = await newMember();
    const { signedAt } = await walkOnboarding({ member, staff, clock, until: 'sub_date' });
    if (signedAt === null) throw new Error('not signed');
    clock.set(new Date(dayAt(signedAt, 7, 20)));
    expect(clock.now().getTime()).toBeGreaterThan(signedAt + 7 * DAY_MS);
    const renounced = await sendUpdate(member.agent, { context: 'renounce', confirm: true });
    expect(renounced.status, JSON.stringify(renounced.body)).toBe(200);
    expect(renounced.body.state).toBe('renonce');
  });

  it('is refused as the period ends, 24:00 Paris on its last day, with the state and the day (409)', async () => {
    clock.set(new Date());
    const member = await newMember();
    const { signedAt } = await walkToPayment({ member, staff, clock });
    const { renunciation } = deadlinesOfSignature(signedAt);
    expect(clock.now().getTime()).toBe(renunciation.endsAtMs);
    const late = await sendUpdate(member.agent, { context: 'renounce', confirm: true });
    expect(late.status).toBe(409);
    expect(late.body.error?.state).toBe('frais-de-dossier');
    expect(late.body.error?.message).toMatch(/délai de renonciation de 7 jours/);
    expect(late.body.error?.message?.replace(/\s/g, ' ')).toContain(
      `a pris fin le ${civilDayText(renunciation.lastDay)}`.replace(/\s/g, ' '),
    );
  });
});

describe('withdrawal within 14 civil days (L221-18, L221-19)', () => {
  it('pays as payment opens, withdraws on day 10: the refund is recorded once and made, mail with the amount, staff see the deadline', async () => {
    clock.set(new Date());
    const member = await newMember();
    const { signedAt } = await walkToPaidContract({ member, staff, clock });
    const at = dayTen(signedAt);
    clock.set(new Date(at));
    const withdrawn = await sendUpdate(member.agent, { context: 'withdraw', confirm: true });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    expect(withdrawn.body.state).toBe('retracte');
    // Retried: refused with the state, and nothing recorded twice.
    const again = await sendUpdate(member.agent, { context: 'withdraw', confirm: true });
    expect(again.status).toBe(409);
    expect(again.body.error?.state).toBe('retracte');

    const paid = FILE_FEE_CENTS + planById('plan_serenity_month').priceCents;
    const rows = await refundsOf(member.id);
    expect(rows.reduce((sum, r) => sum + r.amountCents, 0)).toBe(paid);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.status).toBe('succeeded');
      expect(row.provider).toBe('stand-in');
      expect(row.providerRefundId).toMatch(/^re_local_/);
      expect(row.dueBy.getTime()).toBe(at + 14 * DAY_MS);
    }
    const mails = (await outboxOf(member.email)).filter((m) => m.kind === 'agency-withdrawal-confirmed');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text.replace(/\s/g, ' ')).toContain(`Nous vous remboursons ${formatEuros(paid).replace(/\s/g, ' ')}`);

    const view = await staffView(member.id);
    expect(view.member.state).toBe('retracte');
    expect(view.rights.withdrawnAt).toBe(toIsoInstant(at));
    expect(view.rights.refunds.map((r) => r.done)).toEqual([true, true]);
    expect(view.rights.refunds[0]?.dueBy).toBe(toIsoInstant(at + 14 * DAY_MS));
  });

  it('with an early start asked, the days elapsed are kept pro rata; the rest is refunded', async () => {
    clock.set(new Date());
    const member = await newMember();
    const { signedAt } = await walkToPaidContract({ member, staff, clock, renounce: true });
    const at = dayTen(signedAt);
    clock.set(new Date(at));
    expect((await sendUpdate(member.agent, { context: 'withdraw', confirm: true })).body.state).toBe('retracte');
    const paid = FILE_FEE_CENTS + planById('plan_serenity_month').priceCents;
    const refunded = (await refundsOf(member.id)).reduce((sum, r) => sum + r.amountCents, 0);
    const end = contractEndsAtMs(toIsoInstant(signedAt), 12) ?? 0;
    const termDays = Math.round((end - signedAt) / DAY_MS);
    // The pro rata counts whole 24-hour days elapsed since the signature (periods.ts, unchanged by decision 165).
    const elapsedDays = Math.floor((at - signedAt) / DAY_MS);
    const kept = Math.round(((FILE_FEE_CENTS + planById('plan_serenity_month').totalCents) * elapsedDays) / termDays);
    expect(refunded).toBe(paid - kept);
    const mail = (await outboxOf(member.email)).find((m) => m.kind === 'agency-withdrawal-confirmed');
    expect(mail?.text).toMatch(/article L221\u201125/);
  });

  it('is accepted on the evening of the 14th day, after 14 × 24 hours (civil days)', async () => {
    clock.set(tomorrowMorning());
    const member = await newMember();
    const { signedAt } = await walkToPaidContract({ member, staff, clock });
    clock.set(new Date(dayAt(signedAt, 14, 20)));
    expect(clock.now().getTime()).toBeGreaterThan(signedAt + 14 * DAY_MS);
    const withdrawn = await sendUpdate(member.agent, { context: 'withdraw', confirm: true });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    expect(withdrawn.body.state).toBe('retracte');
  });

  it('is refused as the period ends, 24:00 Paris on its last day (409 with the state and the day)', async () => {
    clock.set(new Date());
    const member = await newMember();
    const { signedAt } = await walkToPaidContract({ member, staff, clock });
    const { withdrawal } = deadlinesOfSignature(signedAt);
    clock.set(new Date(withdrawal.endsAtMs));
    const late = await sendUpdate(member.agent, { context: 'withdraw', confirm: true });
    expect(late.status).toBe(409);
    expect(late.body.error?.state).toBe('attente.entretien-matchmaking');
    expect(late.body.error?.message?.replace(/\s/g, ' ')).toContain(
      `a pris fin le ${civilDayText(withdrawal.lastDay)}`.replace(/\s/g, ' '),
    );
    expect(await refundsOf(member.id)).toEqual([]);
  });
});

describe('the term ends (L224-90)', () => {
  it('an active member past the end date is in contrat-termine; notices at 30 and 7 days, once each; renew goes back to the plans', async () => {
    clock.set(new Date());
    const member = await newMember();
    const { signedAt } = await walkToPaidContract({ member, staff, clock });
    clock.set(new Date(deadlinesOfSignature(signedAt).withdrawal.endsAtMs));
    expect((await sendUpdate(staff.agent, { context: 'meeting_mm', uid: member.id })).body.state).toBe('membre-actif');
    const end = contractEndsAtMs(toIsoInstant(signedAt), 12) ?? 0;
    const job = () => runAgencyMailJob({ db: product.database.db, clock, site });
    for (const at of [end - 30 * DAY_MS, end - 30 * DAY_MS + HOUR_MS, end - 7 * DAY_MS, end - 7 * DAY_MS + HOUR_MS, end - 1]) {
      clock.set(new Date(at));
      await job();
    }
    const state = async () => (await member.agent.json<{ state: string }>(member.agent.get('/api/v1/user/settings'))).state;
    expect(await state()).toBe('membre-actif');
    clock.set(new Date(end));
    expect(await state()).toBe('contrat-termine');
    await job();
    await job();
    const kinds = (await outboxOf(member.email)).map((m) => m.kind);
    expect(kinds.filter((k) => k === 'agency-term-ending')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'agency-term-ended')).toHaveLength(1);
    expect((await staffView(member.id)).rights.termEndsAt).toBe(toIsoInstant(end));
    // Nothing more to pay or withdraw; a new contract starts with the plans.
    expect((await sendUpdate(member.agent, { context: 'withdraw', confirm: true })).status).toBe(409);
    const renewed = await sendUpdate(member.agent, { context: 'renew' });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect(renewed.body.state).toBe('formules');
  });
});
