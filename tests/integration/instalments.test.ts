import { chargeInstalments, postSignedStripeEvent } from '#tests/support/contract-ledger.ts';
import { and, asc, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { instalments } from '#bff/db/instalments-schema.ts';
import { invoices } from '#bff/db/invoices-schema.ts';
import { mailOutbox } from '#bff/db/schema.ts';
import { instalmentInvoiceEvent } from '#bff/stand-ins/instalment-stand-in.ts';
import { DAY_MS } from '#machines/onboarding/instant.ts';
import { instalmentDueAt } from '#machines/onboarding/instalments.ts';
import { offerLabels } from '#machines/onboarding/labels.ts';
import { type PlanId, planById } from '#machines/onboarding/plans.ts';
import { offerLabel } from '#bff/contract/offers.ts';
import { type BillingQuery, billingCsv, billingEntries, billingOrder, billingTotals, entryJson } from '#bff/payments/billing.ts';
import { sendUpdate, signUpMember, walkToPaidContract } from '#tests/support/member-walk.ts';
import { TEST_SITE, type TestProduct } from '#tests/support/test-product.ts';
import { type StaffSession, startWithStaffForSuite } from '#tests/support/staff.ts';

/**
 * Decision 120 over HTTP with the movable clock: monthly instalments charged by the local stand-in
 * through the production webhook path (signed `invoice.paid` / `invoice.payment_failed`), their
 * invoices and mails, a failure shown to staff and mailed, the stop after the last instalment and
 * after a withdrawal, an event outside the contract flagged, and the billing view and CSV export.
 */

const clock = fakeClock(new Date());
let product: TestProduct;
let staff: StaffSession;
startWithStaffForSuite(clock, (started) => ({ product, staff } = started));

const newMember = () => signUpMember(product, 'mensualites');
type Member = Awaited<ReturnType<typeof newMember>>;

/** Signature, day 7: file fee and the first instalment paid; returns when instalment 1 was paid. */
async function subscribed(member: Member, planId: string): Promise<{ signedAt: number; firstPaidAt: number }> {
  const { signedAt } = await walkToPaidContract({ member, staff, clock, planId: planId as PlanId });
  // The clock stays where payment opened (00:00 Paris after the renunciation period, decision 165) while she pays.
  return { signedAt, firstPaidAt: clock.now().getTime() };
}

/** One pass of the stand-in, as `POST /_local/instalments` from a person or the 15-minute job. */
const charge = (memberId: string, outcome: 'paid' | 'failed' = 'paid') => chargeInstalments(product, memberId, outcome);

interface ScheduleJson {
  of: number;
  paidCount: number;
  leftCents: number;
  next: { number: number } | null;
  rows: { number: number; status: string; dueAt: string; due: boolean }[];
  flagged: { number: number; status: string }[];
}
const memberSchedule = async (member: Member) =>
  (await member.agent.json<{ schedule: ScheduleJson | null }>(member.agent.get('/api/v1/user/instalments'))).schedule;
const staffBilling = (memberId: string) =>
  staff.agent.json<{
    schedule: ScheduleJson | null;
    entries: { kind: string; status: string; label: string; amountCents: number; invoiceNumber: string | null; outsideContract: boolean }[];
    totals: { receivedCents: number; expectedCents: number; failedCount: number };
  }>(staff.agent.get(`/api/v1/dashboard/members/${memberId}/billing`));

async function mailsOf(email: string) {
  return product.database.db
    .select({ kind: mailOutbox.kind, subject: mailOutbox.subject, text: mailOutbox.textBody, html: mailOutbox.htmlBody })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), like(mailOutbox.kind, 'agency-%')))
    .orderBy(asc(mailOutbox.id));
}

const postSigned = (event: unknown) => postSignedStripeEvent(product, clock, event);

describe('a 6-instalment plan, month after month', () => {
  it('charges each instalment through the webhook, invoices and mails it; a failure is shown to staff and mailed; it stops after the 6th', async () => {
    clock.set(new Date());
    const member = await newMember();
    const { firstPaidAt } = await subscribed(member, 'plan_horizon_month');
    const plan = planById('plan_horizon_month');

    let schedule = await memberSchedule(member);
    expect(schedule?.of).toBe(6);
    expect(schedule?.rows.map((r) => r.status)).toEqual(['payee', 'a-venir', 'a-venir', 'a-venir', 'a-venir', 'a-venir']);
    expect(schedule?.rows[1]?.dueAt).toBe(new Date(instalmentDueAt(firstPaidAt, 2)).toISOString());
    // Nothing is due before its day.
    clock.set(new Date(instalmentDueAt(firstPaidAt, 2) - 1));
    expect(await charge(member.id)).toMatchObject({ paid: 0, failed: 0 });

    // Month 2: paid, invoiced, mailed.
    clock.set(new Date(instalmentDueAt(firstPaidAt, 2)));
    expect(await charge(member.id)).toEqual({ paid: 1, failed: 0, amountCents: plan.priceCents });
    expect(await charge(member.id)).toMatchObject({ paid: 0 }); // once per instalment
    const [second] = await product.database.db.select().from(instalments).where(eq(instalments.memberId, member.id));
    expect(second).toMatchObject({ number: 2, status: 'paid', amountCents: 9_500, outsideContract: false });
    expect(second?.invoiceNumber).toMatch(/^\d{4}-\d{6}$/);
    const [invoice] = await product.database.db
      .select()
      .from(invoices)
      .where(eq(invoices.number, second?.invoiceNumber ?? ''));
    expect(invoice?.lines).toEqual([{ label: `${offerLabel('plan_horizon_month')} — mensualité 2 sur 6`, amountCents: 9_500 }]);
    expect(invoice?.checkoutSessionId).toBe(second?.providerInvoiceId);
    const received = (await mailsOf(member.email)).filter((m) => m.subject === `Paiement reçu — facture ${second?.invoiceNumber}`);
    expect(received).toHaveLength(1);
    expect(received[0]?.text).toContain('mensualité 2 sur 6');

    // Month 3: the bank refuses. Staff see « échouée », the member is mailed once.
    clock.set(new Date(instalmentDueAt(firstPaidAt, 3)));
    expect(await charge(member.id, 'failed')).toMatchObject({ paid: 0, failed: 1 });
    let billing = await staffBilling(member.id);
    expect(billing.schedule?.rows[2]).toMatchObject({ number: 3, status: 'echouee', due: true });
    expect(billing.totals.failedCount).toBe(1);
    expect(billing.entries.find((e) => e.status === 'echouee')?.label).toBe(`${offerLabels.plan_horizon_month} — mensualité 3 sur 6`);
    const agency = await staff.agent.json<{ entries: { memberId: string; status: string }[] }>(
      staff.agent.get('/api/v1/dashboard/billing?status=echouee'),
    );
    expect(agency.entries.some((e) => e.memberId === member.id)).toBe(true);
    expect(agency.entries.every((e) => e.status === 'echouee')).toBe(true);
    let failedMails = (await mailsOf(member.email)).filter((m) => m.kind === 'agency-instalment-failed');
    expect(failedMails).toHaveLength(1);
    expect(failedMails[0]?.subject).toBe('Mensualité 3 sur 6 : le prélèvement a échoué');
    expect(failedMails[0]?.text).toContain('95,00');
    expect(failedMails[0]?.html).toContain('<html lang="fr">');
    expect((await memberSchedule(member))?.rows[2]?.status).toBe('echouee');

    // The retry three days later pays the same Stripe invoice: instalment 3 becomes payée, no new row.
    clock.set(new Date(instalmentDueAt(firstPaidAt, 3) + 3 * DAY_MS));
    expect(await charge(member.id)).toMatchObject({ paid: 1 });
    const rows = await product.database.db
      .select()
      .from(instalments)
      .where(eq(instalments.memberId, member.id))
      .orderBy(asc(instalments.number));
    expect(rows.map((r) => [r.number, r.status, r.failures])).toEqual([
      [2, 'paid', 0],
      [3, 'paid', 1],
    ]);
    failedMails = (await mailsOf(member.email)).filter((m) => m.kind === 'agency-instalment-failed');
    expect(failedMails).toHaveLength(1);

    // Months 4 to 6, then nothing more, whatever the passes.
    for (const k of [4, 5, 6]) {
      clock.set(new Date(instalmentDueAt(firstPaidAt, k)));
      expect(await charge(member.id), `instalment ${k}`).toMatchObject({ paid: 1 });
    }
    for (const k of [7, 8]) {
      clock.set(new Date(instalmentDueAt(firstPaidAt, k)));
      expect(await charge(member.id)).toMatchObject({ paid: 0, failed: 0 });
    }
    schedule = await memberSchedule(member);
    expect(schedule?.rows.every((r) => r.status === 'payee')).toBe(true);
    expect(schedule?.leftCents).toBe(0);
    expect(schedule?.next).toBeNull();
    const paidInvoices = await product.database.db.select().from(invoices).where(eq(invoices.memberId, member.id));
    // File fee + instalment 1 (checkouts) + instalments 2…6.
    expect(paidInvoices).toHaveLength(7);

    // An event Stripe sends after the end anyway (a 7th invoice): recorded, flagged, never invoiced nor mailed as paid.
    const subscriptionId = rows[0]?.subscriptionId ?? '';
    const late = await instalmentInvoiceEvent({
      type: 'invoice.paid',
      invoiceId: 'in_local_apres_la_fin_0001',
      subscriptionId,
      amountCents: 9_500,
      email: member.email,
      offerId: plan.id,
      now: clock.now(),
    });
    expect((await postSigned(late)).body.outcome).toBe('recorded');
    // The same event again: a duplicate, nothing more.
    expect((await postSigned(late)).body.outcome).toBe('duplicate');
    billing = await staffBilling(member.id);
    expect(billing.schedule?.flagged).toEqual([expect.objectContaining({ number: 7, status: 'paid' })]);
    expect(billing.entries.filter((e) => e.outsideContract)).toHaveLength(1);
    expect(await product.database.db.select().from(invoices).where(eq(invoices.memberId, member.id))).toHaveLength(7);
  });

  it('ignores the subscription_create invoice (instalment 1 is the checkout) and an unknown subscription', async () => {
    const first = await instalmentInvoiceEvent({
      type: 'invoice.paid',
      invoiceId: 'in_local_creation_0001',
      subscriptionId: 'sub_inconnu_0001',
      amountCents: 9_500,
      email: 'x@example.fr',
      offerId: 'plan_horizon_month',
      billingReason: 'subscription_create',
      now: clock.now(),
    });
    expect((await postSigned(first)).body.outcome).toBe('ignored');
    const unknown = await instalmentInvoiceEvent({
      type: 'invoice.payment_failed',
      invoiceId: 'in_local_inconnu_0001',
      subscriptionId: 'sub_inconnu_0001',
      amountCents: 9_500,
      email: 'x@example.fr',
      offerId: 'plan_horizon_month',
      now: clock.now(),
    });
    expect((await postSigned(unknown)).body.outcome).toBe('ignored');
    expect(await product.database.db.select().from(instalments).where(eq(instalments.subscriptionId, 'sub_inconnu_0001'))).toEqual([]);
    // A malformed invoice is refused in French, and records nothing.
    const bad = await postSigned({ ...unknown, id: 'evt_mal_forme_0001', data: { object: { id: 'pas-une-facture', object: 'invoice' } } });
    expect(bad.status).toBe(400);
  });
});

describe('stop after a withdrawal', () => {
  it('a member who withdraws on day 10 is never charged again; the schedule shows the rest annulée', async () => {
    clock.set(new Date());
    const member = await newMember();
    const { signedAt, firstPaidAt } = await subscribed(member, 'plan_serenity_month');
    // Day 10, or just after the payment when a weekend or a holiday opened it later.
    clock.set(new Date(Math.max(signedAt + 10 * DAY_MS, firstPaidAt + 60 * 60 * 1000)));
    expect((await sendUpdate(member.agent, { context: 'withdraw', confirm: true })).body.state).toBe('retracte');
    for (const k of [2, 3]) {
      clock.set(new Date(instalmentDueAt(firstPaidAt, k)));
      expect(await charge(member.id)).toMatchObject({ paid: 0, failed: 0 });
    }
    const schedule = await memberSchedule(member);
    // Instalment 1 was refunded in full with the rest of the contract's money (decision 175).
    expect(schedule?.rows.map((r) => r.status)).toEqual(['remboursee', ...Array(11).fill('annulee')]);
    expect(schedule?.leftCents).toBe(0);
    expect(await product.database.db.select().from(instalments).where(eq(instalments.memberId, member.id))).toEqual([]);
  });
});

describe('`/_local/instalments` from outside', () => {
  it('answers bad input with a French 400 and charges nothing; never a 500, whatever the body', async () => {
    clock.set(new Date());
    const member = await newMember();
    const { firstPaidAt } = await subscribed(member, 'plan_serenity_month');
    clock.set(new Date(instalmentDueAt(firstPaidAt, 2)));
    const agent = product.agent();
    const bodies: [string, Record<string, string>][] = [
      [new URLSearchParams({ member: 'pas-un-uuid' }).toString(), { 'content-type': 'application/x-www-form-urlencoded' }],
      [new URLSearchParams({ member: member.id, outcome: 'free' }).toString(), { 'content-type': 'application/x-www-form-urlencoded' }],
      [`member=${'%'.repeat(3000)}`, { 'content-type': 'application/x-www-form-urlencoded' }],
      ['{"member":', { 'content-type': 'application/json' }],
      ['--x\r\nContent-Disposition: form-data; name="member"\r\n\r\n', { 'content-type': 'multipart/form-data; boundary=x' }],
    ];
    for (const [body, headers] of bodies) {
      const response = await agent.request('POST', '/_local/instalments', body, { ...headers, origin: TEST_SITE });
      expect(response.status, body.slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(response.status, body.slice(0, 40)).toBeLessThan(500);
    }
    // Without the site's origin (a cross-site form), nothing runs either.
    const crossSite = await agent.request('POST', '/_local/instalments', new URLSearchParams({ member: member.id }).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'https://evil.example',
    });
    expect(crossSite.status).toBeGreaterThanOrEqual(400);
    expect(crossSite.status).toBeLessThan(500);
    expect(await product.database.db.select().from(instalments).where(eq(instalments.memberId, member.id))).toEqual([]);
    // A well-formed pass still charges the instalment due.
    expect(await charge(member.id)).toMatchObject({ paid: 1 });
  });
});

describe('the billing view and its CSV export', () => {
  it('lists payments, instalments and refunds with French words; the CSV is Excel-ready (BOM, ;, decimal comma)', async () => {
    const all = await staff.agent.json<{ entries: { kind: string; status: string }[]; totals: { receivedCents: number } }>(
      staff.agent.get('/api/v1/dashboard/billing'),
    );
    expect(new Set(all.entries.map((e) => e.kind))).toEqual(new Set(['payment', 'instalment', 'refund']));
    expect(all.totals.receivedCents).toBeGreaterThan(0);

    const csv = await staff.agent.get('/api/v1/dashboard/billing/export?kind=instalment');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="facturation-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await csv.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Date;Type;Membre;E-mail;Libellé;Montant (€);Statut;Facture;Remarque');
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.slice(1).every((l) => l.split(';')[1] === 'Mensualité')).toBe(true);
    expect(text).toMatch(/;95,00;Payée;\d{4}-\d{6};/);
    expect(text).toContain(';Annulée;');
    expect(text).toContain('Reçue hors contrat : remboursée d’office');
    expect(text).not.toMatch(/plan_|a-venir|echouee|payee/);

    const refundsCsv = await (await staff.agent.get('/api/v1/dashboard/billing/export?kind=refund')).text();
    expect(refundsCsv).toMatch(/;Remboursement;.*;-\d+,\d{2};Remboursé;/);

    // Bad filters: a French 400, never a 500.
    for (const query of ['from=2026-13-45', 'status=paid', 'kind=tout', 'from=2026-12-01&to=2026-11-01']) {
      const answer = await staff.agent.get(`/api/v1/dashboard/billing/export?${query}`);
      expect(answer.status, query).toBe(400);
      expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(/[ée]/);
    }
    // The agency's view in SQL (decision 204) gives, page after page, the very lines and totals the
    // former in-memory reading gives on this file's data (kept for one member's view), for each filter.
    const now = clock.now();
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const queries: BillingQuery[] = [
      {},
      { kind: 'instalment' },
      { status: 'a-venir' },
      { status: 'annulee' },
      { kind: 'refund' },
      { status: 'payee' },
      { from: day(now.getTime() - 60 * DAY_MS), to: day(now.getTime() + 90 * DAY_MS) },
      { from: day(now.getTime() + 30 * DAY_MS), kind: 'instalment' },
    ];
    for (const query of queries) {
      // Lines at the same instant for the same name came in the order the tables were read; the view orders them (billingOrder).
      const expected = (await billingEntries(product.database.db, query, now)).sort(billingOrder);
      expect(expected.length, JSON.stringify(query)).toBeGreaterThanOrEqual(0);
      const lines: unknown[] = [];
      let totals: unknown;
      for (let page = 1; page <= 50; page += 1) {
        const params = new URLSearchParams({ ...(query as Record<string, string>), page: String(page), perPage: '3' });
        const answer = await staff.agent.json<{ entries: unknown[]; totals: unknown; pageCount: number; total: number }>(
          staff.agent.get(`/api/v1/dashboard/billing?${params}`),
        );
        lines.push(...answer.entries);
        totals = answer.totals;
        expect(answer.total, JSON.stringify(query)).toBe(expected.length);
        if (page >= answer.pageCount) break;
      }
      expect(lines, JSON.stringify(query)).toEqual(expected.map(entryJson));
      // As the former answer said it over the wire (its -0 is 0 in JSON).
      expect(totals, JSON.stringify(query)).toEqual(JSON.parse(JSON.stringify(billingTotals(expected))));
      const csv = await (
        await staff.agent.get(`/api/v1/dashboard/billing/export?${new URLSearchParams(query as Record<string, string>)}`)
      ).text();
      // (`text()` drops the BOM, checked byte by byte above.)
      expect(csv, JSON.stringify(query)).toBe(billingCsv(expected).slice(1));
    }
    expect((await billingEntries(product.database.db, { status: 'a-venir' }, now)).length).toBeGreaterThan(0);

    // A period filter: nothing before the first payment of this run.
    const old = await staff.agent.json<{ entries: unknown[] }>(staff.agent.get('/api/v1/dashboard/billing?from=2000-01-01&to=2000-12-31'));
    expect(old.entries).toEqual([]);
  });
});
