import { asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { agencyJobs } from '#bff/agency-jobs.ts';
import { fakeClock } from '#bff/clock.ts';
import { parseConfig } from '#bff/config.ts';
import { creditNotes } from '#bff/db/credit-notes-schema.ts';
import { instalments } from '#bff/db/instalments-schema.ts';
import { invoices } from '#bff/db/invoices-schema.ts';
import { refunds } from '#bff/db/refunds-schema.ts';
import { runAgencyMailJob } from '#bff/mail/agency-mail-triggers.ts';
import { instalmentInvoiceEvent } from '#bff/stand-ins/instalment-stand-in.ts';
import { stripeTestEvent } from '#bff/stand-ins/stripe-events.ts';
import { DAY_MS, toIsoInstant } from '#machines/onboarding/instant.ts';
import { instalmentDueAt } from '#machines/onboarding/instalments.ts';
import { contractEndsAtMs, terminationRefundCents } from '#machines/onboarding/periods.ts';
import { FILE_FEE_CENTS, planById } from '#machines/onboarding/plans.ts';
import { chargeInstalments, postSignedStripeEvent, renewToPaidContract } from '#tests/support/contract-ledger.ts';
import { agencyMailsOf, sendUpdate, signUpMember, walkToPaidContract } from '#tests/support/member-walk.ts';
import { walkOnboarding } from '#tests/support/onboarding-walk.ts';
import { type StaffSession, startWithStaffForSuite } from '#tests/support/staff.ts';
import { TEST_SITE, testAgencySite, type TestProduct } from '#tests/support/test-product.ts';
import { requestTermination, samplePdf } from '#tests/support/termination.ts';

/**
 * One ledger per contract (decision 175) and mails that follow the state (decision 176), over
 * HTTP with the movable clock: the defects of issue 59 (points 2 and 3) first, as sequences a
 * member and staff go through, then the rules that must hold.
 */

const clock = fakeClock(new Date());
let product: TestProduct;
let staff: StaffSession;
startWithStaffForSuite(clock, (started) => ({ product, staff } = started));

const db = () => product.database.db;
const newMember = () => signUpMember(product, 'registre');
type Member = Awaited<ReturnType<typeof newMember>>;
const job = () => runAgencyMailJob({ db: db(), clock, site: testAgencySite() });

/** The member's termination form (decision 189): a move, with its proof as a file. */
const REQUEST = { reason: 'demenagement', explanation: 'Je pars vivre au Canada pour mon travail.' };
const PROOF = { bytes: samplePdf(), name: 'attestation.pdf', type: 'application/pdf' };

interface ScheduleJson {
  of: number;
  paidCount: number;
  leftCents: number;
  next: { number: number } | null;
  rows: { number: number; status: string; refundedCents: number }[];
}
const memberSchedule = async (member: Member) =>
  (await member.agent.json<{ schedule: ScheduleJson | null }>(member.agent.get('/api/v1/user/instalments'))).schedule;
const staffBilling = (memberId: string) =>
  staff.agent.json<{
    schedule: ScheduleJson | null;
    entries: { kind: string; status: string; label: string; amountCents: number; outsideContract: boolean }[];
  }>(staff.agent.get(`/api/v1/dashboard/members/${memberId}/billing`));

const refundRowsOf = (memberId: string) => db().select().from(refunds).where(eq(refunds.memberId, memberId)).orderBy(asc(refunds.id));
const sum = (xs: readonly { amountCents: number }[]) => xs.reduce((s, x) => s + x.amountCents, 0);

/** A member on a monthly plan, paid on day 7 and active on day 15. */
async function activeMonthly(planId: 'plan_serenity_month' | 'plan_horizon_month' = 'plan_serenity_month') {
  clock.set(new Date());
  const member = await newMember();
  const { signedAt } = await walkToPaidContract({ member, staff, clock, planId });
  const firstPaidAt = clock.now().getTime();
  clock.set(new Date(signedAt + 15 * DAY_MS));
  expect((await sendUpdate(staff.agent, { context: 'meeting_mm', uid: member.id })).body.state).toBe('membre-actif');
  return { member, signedAt, firstPaidAt };
}

describe('a) a terminated contract stops charging', () => {
  it('counts the instalment taken during review, cancels the subscription at acceptance, refunds a later charge at once', async () => {
    const { member, signedAt, firstPaidAt } = await activeMonthly();
    const plan = planById('plan_serenity_month');
    const requestedAt = instalmentDueAt(firstPaidAt, 2) - 3 * DAY_MS;
    clock.set(new Date(requestedAt));
    expect((await requestTermination(member.agent, REQUEST, PROOF)).body.state).toBe('resiliation-demandee');

    // While staff review, the contract stands: instalment 2 is taken, invoiced, mailed.
    clock.set(new Date(instalmentDueAt(firstPaidAt, 2)));
    expect(await chargeInstalments(product, member.id)).toMatchObject({ paid: 1 });
    clock.set(new Date(instalmentDueAt(firstPaidAt, 2) + 60 * 60 * 1000));
    const acceptedAt = clock.now().getTime();
    expect((await sendUpdate(staff.agent, { context: 'terminate_ok', uid: member.id })).body.state).toBe('resilie');

    // The pro rata counts every payment of the contract: the file fee and instalments 1 and 2.
    const paidCents = FILE_FEE_CENTS + 2 * plan.priceCents;
    const expected = terminationRefundCents({
      paidCents,
      contractPriceCents: FILE_FEE_CENTS + plan.totalCents,
      signedAtMs: signedAt,
      endsAtMs: contractEndsAtMs(toIsoInstant(signedAt), 12) ?? 0,
      requestedAtMs: requestedAt,
    });
    const afterAcceptance = await refundRowsOf(member.id);
    expect(afterAcceptance.every((r) => r.reason === 'termination')).toBe(true);
    expect(sum(afterAcceptance)).toBe(expected.refundCents);

    // The subscription is cancelled at the acceptance, through the gateway.
    const [contract] = (
      (await db().execute(
        sql`SELECT stopped_at, stop_reason, subscription_cancelled_at FROM contracts WHERE member_id = ${member.id}::uuid`,
      )) as unknown as { rows: { stopped_at: string; stop_reason: string; subscription_cancelled_at: string | null }[] }
    ).rows;
    expect(contract?.stop_reason).toBe('termination');
    expect(new Date(contract?.stopped_at ?? 0).getTime()).toBe(acceptedAt);
    expect(new Date(contract?.subscription_cancelled_at ?? 0).getTime()).toBe(acceptedAt);

    // Month 3: the stand-in takes nothing more.
    clock.set(new Date(instalmentDueAt(firstPaidAt, 3)));
    expect(await chargeInstalments(product, member.id)).toMatchObject({ paid: 0, failed: 0 });
    // Stripe charges anyway (a cancellation lost): refunded at once, never invoiced, told once.
    const [second] = await db().select().from(instalments).where(eq(instalments.memberId, member.id));
    const late = await instalmentInvoiceEvent({
      type: 'invoice.paid',
      invoiceId: 'in_local_apres_resiliation_0001',
      subscriptionId: second?.subscriptionId ?? '',
      amountCents: plan.priceCents,
      email: member.email,
      offerId: plan.id,
      now: clock.now(),
    });
    expect((await postSignedStripeEvent(product, clock, late)).body.outcome).toBe('recorded');
    expect((await postSignedStripeEvent(product, clock, late)).body.outcome).toBe('duplicate');
    const all = await refundRowsOf(member.id);
    const automatic = all.filter((r) => r.checkoutSessionId === 'in_local_apres_resiliation_0001');
    expect(automatic).toEqual([expect.objectContaining({ reason: 'outside_contract', amountCents: plan.priceCents, status: 'succeeded' })]);
    const memberInvoices = await db().select().from(invoices).where(eq(invoices.memberId, member.id));
    expect(memberInvoices).toHaveLength(3); // file fee, instalments 1 and 2
    const mails = await agencyMailsOf(product, member.email);
    expect(mails.filter((m) => m.kind === 'agency-payment-received')).toHaveLength(3);
    const told = mails.filter((m) => m.kind === 'agency-charge-refunded');
    expect(told).toHaveLength(1);
    expect(told[0]?.text).toMatch(/rembours/);

    // The schedule matches the ledger: nothing left to pay, no next instalment, the late charge refunded.
    const schedule = await memberSchedule(member);
    expect(schedule?.leftCents).toBe(0);
    expect(schedule?.next).toBeNull();
    expect(schedule?.rows.some((r) => r.status === 'a-venir')).toBe(false);
    expect(schedule?.rows[2]).toMatchObject({ number: 3, status: 'remboursee', refundedCents: plan.priceCents });
    expect(schedule?.rows.slice(3).every((r) => r.status === 'annulee')).toBe(true);
    const billing = await staffBilling(member.id);
    expect(billing.schedule?.next).toBeNull();
    expect(billing.schedule?.leftCents).toBe(0);
    expect(billing.entries.some((e) => e.status === 'a-venir')).toBe(false);
    expect(billing.entries.find((e) => e.kind === 'refund' && e.amountCents === -plan.priceCents)?.label).toMatch(/après la fin/);
  });
});

describe('b) refunds stay within each contract', () => {
  it('withdraw contract 1, renew, terminate contract 2, renew, withdraw contract 3: each refund from its own contract only', async () => {
    clock.set(new Date());
    const member = await newMember();
    const planId = 'plan_serenity_year';
    const price = FILE_FEE_CENTS + planById(planId).totalCents;
    const one = await walkToPaidContract({ member, staff, clock, planId });
    clock.set(new Date(one.signedAt + 10 * DAY_MS));
    expect((await sendUpdate(member.agent, { context: 'withdraw', confirm: true })).body.state).toBe('retracte');
    expect(sum(await refundRowsOf(member.id))).toBe(price);

    clock.set(new Date(one.signedAt + 20 * DAY_MS));
    const two = await renewToPaidContract({ member, staff, clock, planId });
    clock.set(new Date(two.signedAt + 15 * DAY_MS));
    expect((await sendUpdate(staff.agent, { context: 'meeting_mm', uid: member.id })).body.state).toBe('membre-actif');
    const requestedAt = two.signedAt + 60 * DAY_MS;
    clock.set(new Date(requestedAt));
    expect((await requestTermination(member.agent, REQUEST, PROOF)).status).toBe(201);
    clock.set(new Date(requestedAt + DAY_MS));
    expect((await sendUpdate(staff.agent, { context: 'terminate_ok', uid: member.id })).body.state).toBe('resilie');
    const kept = terminationRefundCents({
      paidCents: price,
      contractPriceCents: price,
      signedAtMs: two.signedAt,
      endsAtMs: contractEndsAtMs(toIsoInstant(two.signedAt), 12) ?? 0,
      requestedAtMs: requestedAt,
    }).keptCents;
    expect(sum(await refundRowsOf(member.id))).toBe(price + price - kept);

    clock.set(new Date(requestedAt + 3 * DAY_MS));
    const three = await renewToPaidContract({ member, staff, clock, planId });
    clock.set(new Date(three.signedAt + 10 * DAY_MS));
    expect((await sendUpdate(member.agent, { context: 'withdraw', confirm: true })).body.state).toBe('retracte');
    const rows = await refundRowsOf(member.id);
    expect(sum(rows)).toBe(3 * price - kept);

    // Per charge: refunded ≤ received; every refund names the contract of its charge.
    const result = (await db().execute(sql`
      SELECT r.checkout_session_id AS charge, sum(r.amount_cents)::int AS refunded, max(s.amount_total) AS received,
             bool_and(r.contract_id = s.contract_id) AS same_contract, count(DISTINCT r.contract_id)::int AS contracts
      FROM refunds r JOIN checkout_sessions s ON s.id = r.checkout_session_id
      WHERE r.member_id = ${member.id}::uuid GROUP BY r.checkout_session_id`)) as unknown as {
      rows: { charge: string; refunded: number; received: number; same_contract: boolean; contracts: number }[];
    };
    // Six charges; contract 2’s file fee is kept whole (60 days of the price exceed it).
    expect(result.rows).toHaveLength(5);
    for (const row of result.rows) {
      expect(row.refunded, row.charge).toBeLessThanOrEqual(row.received);
      expect(row.same_contract, row.charge).toBe(true);
      expect(row.contracts, row.charge).toBe(1);
    }
    // Every credit note corrects an invoice of its own contract, never beyond the invoice.
    const notes = await db().select().from(creditNotes).where(eq(creditNotes.memberId, member.id));
    const byInvoice = new Map<string, number>();
    for (const note of notes) byInvoice.set(note.invoiceNumber ?? '', (byInvoice.get(note.invoiceNumber ?? '') ?? 0) + note.amountCents);
    for (const [number, refunded] of byInvoice) {
      const [invoice] = await db().select().from(invoices).where(eq(invoices.number, number));
      expect(refunded, number).toBeLessThanOrEqual(invoice?.totalCents ?? 0);
    }

    // The database refuses a refund beyond what a charge received, whatever the code does.
    const charge = rows[0]?.checkoutSessionId ?? '';
    const contractId = (
      (await db().execute(sql`SELECT contract_id FROM refunds WHERE id = ${rows[0]?.id ?? 0}`)) as unknown as {
        rows: { contract_id: number }[];
      }
    ).rows[0]?.contract_id;
    const refused = await db()
      .execute(sql`INSERT INTO refunds (member_id, contract_id, checkout_session_id, reason, amount_cents, paid_cents, requested_at, due_by)
        VALUES (${member.id}::uuid, ${contractId}, ${charge}, 'outside_contract', 1, 0, now(), now())`)
      .then(
        () => null,
        (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
      );
    expect(refused).toMatch(/would exceed received/);
  });
});

describe('c) scheduled mails follow the state at the moment they are sent', () => {
  it('a member who renounced on day 3 is never asked to pay on day 7 nor told of the next step on day 14', async () => {
    clock.set(new Date());
    const member = await newMember();
    const { signedAt } = await walkOnboarding({ member, staff, clock, until: 'sub_date' });
    if (signedAt === null) throw new Error('not signed');
    clock.set(new Date(signedAt + 3 * DAY_MS));
    expect((await sendUpdate(member.agent, { context: 'renounce', confirm: true })).body.state).toBe('renonce');
    for (const day of [7, 8, 14, 15]) {
      clock.set(new Date(signedAt + day * DAY_MS + 60_000));
      await job();
    }
    const kinds = (await agencyMailsOf(product, member.email)).map((m) => m.kind);
    expect(kinds).toContain('agency-renunciation-confirmed');
    expect(kinds).not.toContain('agency-renunciation-period-over');
    expect(kinds).not.toContain('agency-withdrawal-period-over');
  });

  it('a member who withdrew on day 10 gets no « prochaine étape » mail on day 14', async () => {
    clock.set(new Date());
    const member = await newMember();
    const { signedAt } = await walkToPaidContract({ member, staff, clock });
    clock.set(new Date(signedAt + 10 * DAY_MS));
    expect((await sendUpdate(member.agent, { context: 'withdraw', confirm: true })).body.state).toBe('retracte');
    for (const day of [14, 15]) {
      clock.set(new Date(signedAt + day * DAY_MS + 60_000));
      await job();
    }
    const kinds = (await agencyMailsOf(product, member.email)).map((m) => m.kind);
    expect(kinds).toContain('agency-withdrawal-confirmed');
    expect(kinds).not.toContain('agency-withdrawal-period-over');
  });
});

async function contractRow(memberId: string) {
  const result = (await db().execute(
    sql`SELECT stopped_at, stop_reason, subscription_cancelled_at FROM contracts WHERE member_id = ${memberId}::uuid ORDER BY signed_at DESC LIMIT 1`,
  )) as unknown as { rows: { stopped_at: string | null; stop_reason: string | null; subscription_cancelled_at: string | null }[] };
  const row = result.rows[0];
  const ms = (x: string | null | undefined) => (x ? new Date(x).getTime() : null);
  return { stoppedAt: ms(row?.stopped_at), reason: row?.stop_reason ?? null, cancelledAt: ms(row?.subscription_cancelled_at) };
}

interface TermJson {
  endsOn: string | null;
  ended: { on: string; reason: string; refundedCents: number } | null;
}
const progressTerm = async (member: Member) =>
  (await member.agent.json<{ term: TermJson }>(member.agent.get('/api/v1/user/progress'))).term;

describe('every stop cancels the subscription at its effective date (decision 175)', () => {
  it('a withdrawal: the contract stops and its subscription is cancelled at that instant; the schedule owes nothing', async () => {
    clock.set(new Date());
    const member = await newMember();
    const { signedAt } = await walkToPaidContract({ member, staff, clock, planId: 'plan_horizon_month' });
    clock.set(new Date(signedAt + 10 * DAY_MS));
    expect((await sendUpdate(member.agent, { context: 'withdraw', confirm: true })).body.state).toBe('retracte');
    expect(await contractRow(member.id)).toEqual({
      stoppedAt: clock.now().getTime(),
      reason: 'withdrawal',
      cancelledAt: clock.now().getTime(),
    });
    const schedule = await memberSchedule(member);
    expect(schedule?.leftCents).toBe(0);
    expect(schedule?.next).toBeNull();
    // « Mon accompagnement » says it ended, how, and what came back: never « prend fin le … ».
    const term = await progressTerm(member);
    expect(term.endsOn).toBeNull();
    expect(term.ended).toEqual({
      on: new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(clock.now()),
      reason: 'rétractation dans les 14 jours',
      refundedCents: FILE_FEE_CENTS + planById('plan_horizon_month').priceCents,
    });
  });

  it('the term: the next pass stops the contract at its end and cancels the subscription; a later charge is refunded', async () => {
    const { member, firstPaidAt, signedAt } = await activeMonthly('plan_horizon_month');
    for (const k of [2, 3, 4, 5, 6]) {
      clock.set(new Date(instalmentDueAt(firstPaidAt, k)));
      expect(await chargeInstalments(product, member.id), `instalment ${k}`).toMatchObject({ paid: 1 });
    }
    const end = contractEndsAtMs(toIsoInstant(signedAt), 6) ?? 0;
    clock.set(new Date(end + 60_000));
    expect(await chargeInstalments(product, member.id)).toMatchObject({ paid: 0 });
    expect(await contractRow(member.id)).toEqual({ stoppedAt: end, reason: 'term', cancelledAt: end + 60_000 });
    const term = await progressTerm(member);
    expect(term.endsOn).toBeNull();
    expect(term.ended?.reason).toBe('arrivée à son terme');
    // A charge Stripe takes after the term: recorded, refunded at once, never invoiced.
    const [row] = await db().select().from(instalments).where(eq(instalments.memberId, member.id));
    const invoicesBefore = (await db().select().from(invoices).where(eq(invoices.memberId, member.id))).length;
    const late = await instalmentInvoiceEvent({
      type: 'invoice.paid',
      invoiceId: 'in_local_apres_le_terme_0001',
      subscriptionId: row?.subscriptionId ?? '',
      amountCents: 9_500,
      email: member.email,
      offerId: 'plan_horizon_month',
      now: clock.now(),
    });
    expect((await postSignedStripeEvent(product, clock, late)).body.outcome).toBe('recorded');
    const automatic = (await refundRowsOf(member.id)).filter((r) => r.checkoutSessionId === 'in_local_apres_le_terme_0001');
    expect(automatic).toEqual([expect.objectContaining({ reason: 'outside_contract', amountCents: 9_500, status: 'succeeded' })]);
    expect(await db().select().from(invoices).where(eq(invoices.memberId, member.id))).toHaveLength(invoicesBefore);
    expect((await agencyMailsOf(product, member.email)).filter((m) => m.kind === 'agency-charge-refunded')).toHaveLength(1);
  });

  it('the term, with no instalment due: the agency’s « subscriptions » job stops the contract and cancels its subscription that day', async () => {
    const { member, firstPaidAt, signedAt } = await activeMonthly('plan_horizon_month');
    for (const k of [2, 3, 4, 5, 6]) {
      clock.set(new Date(instalmentDueAt(firstPaidAt, k)));
      await chargeInstalments(product, member.id);
    }
    const end = contractEndsAtMs(toIsoInstant(signedAt), 6) ?? 0;
    const [subscriptions] = agencyJobs({
      config: parseConfig({ NODE_ENV: 'test', PUBLIC_SITE_URL: TEST_SITE }),
      db: db(),
      clock,
      auth: product.auth,
      dispatch: (request) => product.app.fetch(request),
      mailQueued: () => {},
    }).filter((job) => job.name === 'subscriptions');
    clock.set(new Date(end - 60_000));
    await subscriptions?.run();
    expect(await contractRow(member.id)).toMatchObject({ stoppedAt: null, cancelledAt: null });
    clock.set(new Date(end + 120_000));
    await subscriptions?.run();
    expect(await contractRow(member.id)).toEqual({ stoppedAt: end, reason: 'term', cancelledAt: end + 120_000 });
  });

  it('a renunciation stops the contract; « Mon accompagnement » no longer says « prend fin le … »', async () => {
    clock.set(new Date());
    const member = await newMember();
    const { signedAt } = await walkOnboarding({ member, staff, clock, until: 'sub_date' });
    if (signedAt === null) throw new Error('not signed');
    expect((await progressTerm(member)).endsOn).not.toBeNull();
    clock.set(new Date(signedAt + 3 * DAY_MS));
    expect((await sendUpdate(member.agent, { context: 'renounce', confirm: true })).body.state).toBe('renonce');
    expect((await contractRow(member.id)).reason).toBe('renunciation');
    const term = await progressTerm(member);
    expect(term.endsOn).toBeNull();
    expect(term.ended).toMatchObject({ reason: 'renonciation dans les 7 jours', refundedCents: 0 });
  });
});

describe('a payment that arrives for a stopped contract (decision 175)', () => {
  it('is recorded on its contract, refunded at once, never invoiced, told to the member once, shown to staff', async () => {
    clock.set(new Date());
    const member = await newMember();
    const { signedAt } = await walkToPaidContract({ member, staff, clock, planId: 'plan_serenity_year' });
    clock.set(new Date(signedAt + 10 * DAY_MS));
    expect((await sendUpdate(member.agent, { context: 'withdraw', confirm: true })).body.state).toBe('retracte');
    const invoicesBefore = (await db().select().from(invoices).where(eq(invoices.memberId, member.id))).length;
    // A checkout paid in another tab before the withdrawal, confirmed by Stripe only now.
    clock.set(new Date(signedAt + 11 * DAY_MS));
    const event = await stripeTestEvent(
      'checkout.session.completed',
      {
        id: 'cs_test_apres_retractation_0001',
        object: 'checkout.session',
        client_reference_id: member.id,
        amount_total: 102_000,
        currency: 'eur',
        status: 'complete',
        payment_status: 'paid',
        payment_link: null,
        customer_details: { email: member.email },
        customer_email: null,
        metadata: { offer_id: 'plan_serenity_year' },
        livemode: false,
      },
      Math.floor(clock.now().getTime() / 1000),
    );
    expect((await postSignedStripeEvent(product, clock, event)).body.outcome).toBe('recorded');
    expect((await postSignedStripeEvent(product, clock, { ...event, id: `${event.id}_bis` })).body.outcome).toBe('recorded');
    const automatic = (await refundRowsOf(member.id)).filter((r) => r.checkoutSessionId === 'cs_test_apres_retractation_0001');
    expect(automatic).toEqual([expect.objectContaining({ reason: 'outside_contract', amountCents: 102_000, status: 'succeeded' })]);
    expect(await db().select().from(invoices).where(eq(invoices.memberId, member.id))).toHaveLength(invoicesBefore);
    expect((await agencyMailsOf(product, member.email)).filter((m) => m.kind === 'agency-charge-refunded')).toHaveLength(1);
    const billing = await staffBilling(member.id);
    expect(billing.entries.find((e) => e.kind === 'refund' && e.amountCents === -102_000)).toMatchObject({ status: 'rembourse' });
    expect(billing.entries.find((e) => e.kind === 'refund' && e.amountCents === -102_000)?.label).toMatch(/après la fin du contrat/);
    // …and the payment it gives back, received outside the contract (never a refund without its payment).
    expect(billing.entries.find((e) => e.kind === 'payment' && e.amountCents === 102_000)).toMatchObject({
      status: 'payee',
      outsideContract: true,
    });
  });
});
