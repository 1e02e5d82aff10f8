import { randomBytes, randomUUID } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { outOfBounds, pdfPages } from '#tests/support/pdf-text.ts';
import { eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { parseConfig } from '#bff/config.ts';
import type { Database } from '#bff/db/database.ts';
import { invoiceCounters, invoices } from '#bff/db/invoices-schema.ts';
import { mailOutbox, members } from '#bff/db/schema.ts';
import { allocateInvoiceNumber } from '#bff/invoices/invoices.ts';
import { type CheckoutSessionObject, recordCheckoutEvent } from '#bff/payments/checkout-events.ts';
import { eraseMemberData } from '#bff/privacy/erasure.ts';
import { STRIPE_STAND_IN_SECRET_KEY, standInSecret } from '#bff/db/stand-in-secrets.ts';
import { FILE_FEE_CENTS } from '#machines/onboarding/plans.ts';
import { DEMO_AGENCY_IDENTITY } from '#machines/public-site/agency-identity.ts';
import { walkToPayment } from '#tests/support/onboarding-walk.ts';
import { signInStaff } from '#tests/support/staff.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';
import { startTestProduct, TEST_SITE } from '#tests/support/test-product.ts';
import { payOnStandIn } from '#tests/support/member-walk.ts';
import { signUp } from '#tests/support/sign-up.ts';

/**
 * Invoices (decision 110): one per recorded payment, numbered per year without gaps even under
 * concurrent payments, with the agency's identity, mailed once with the PDF attached, and readable
 * only by the member and by staff at aal2. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */

/** The text drawn in a pdf-lib PDF: its (deflated) content streams' hex strings, in WinAnsi. */
function pdfText(pdf: Uint8Array): string {
  const raw = Buffer.from(pdf).toString('latin1');
  const parts: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    const bytes = Buffer.from(match[1] ?? '', 'latin1');
    let content: string;
    try {
      content = inflateSync(bytes).toString('latin1');
    } catch {
      content = bytes.toString('latin1');
    }
    for (const hex of content.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g)) {
      // WinAnsi: € is 0x80, ’ 0x92 and — 0x97; the rest of what an invoice uses is Latin-1.
      parts.push(
        Buffer.from(hex[1] ?? '', 'hex')
          .toString('latin1')
          .replace(/\x80/g, '€')
          .replace(/\x92/g, '’')
          .replace(/\x97/g, '—')
          .replace(/\u00a0/g, ' '),
      );
    }
  }
  return parts.join('\n');
}

const config = parseConfig({ NODE_ENV: 'test', PORT: '3999', PUBLIC_SITE_URL: TEST_SITE, DEMO_DATA: 'false' });

function session(id: string, memberId: string, amount: number, offerId = 'file_fee'): CheckoutSessionObject {
  return {
    id,
    object: 'checkout.session',
    client_reference_id: memberId,
    amount_total: amount,
    currency: 'eur',
    status: 'complete',
    payment_status: amount === 0 ? 'no_payment_required' : 'paid',
    payment_link: null,
    customer_details: { email: 'membre@example.fr' },
    customer_email: null,
    metadata: { offer_id: offerId },
    livemode: false,
  };
}

describe('invoice numbers', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('50 concurrent payments get 50 distinct numbers 2026-000001…000050, no gap, one mail each', async () => {
    const db = database.db;
    const ids = Array.from({ length: 50 }, () => randomUUID());
    await db.insert(members).values(
      ids.map((id, i) => ({
        id,
        email: `concurrent.${i}@example.fr`,
        gender: 'femme',
        onboarding: {},
        contract: { fullName: `Membre ${i}` },
      })),
    );
    const now = new Date('2026-06-15T10:00:00Z');
    const outcomes = await Promise.all(
      ids.map((id, i) =>
        recordCheckoutEvent(
          db,
          config,
          { id: `evt_concurrent_${i}`, type: 'checkout.session.completed', livemode: false },
          session(`cs_test_concurrent_${i}`, id, i % 5 === 0 ? 11_900 : FILE_FEE_CENTS),
          now,
        ),
      ),
    );
    expect(outcomes.every((o) => o === 'recorded')).toBe(true);
    const rows = await db.select({ number: invoices.number, memberId: invoices.memberId }).from(invoices);
    expect(rows).toHaveLength(50);
    const numbers = rows.map((r) => r.number).sort();
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `2026-${String(i + 1).padStart(6, '0')}`));
    expect(new Set(rows.map((r) => r.memberId)).size).toBe(50);
    const [counter] = await db.select().from(invoiceCounters).where(eq(invoiceCounters.year, 2026));
    expect(counter?.lastNumber).toBe(50);
    const mails = await db.select({ to: mailOutbox.toAddress }).from(mailOutbox).where(eq(mailOutbox.kind, 'agency-payment-received'));
    expect(mails).toHaveLength(50);
  });

  it('a rolled-back payment gives its number back; a new year starts at 000001', async () => {
    const db = database.db;
    await expect(
      db.transaction(async (tx) => {
        expect((await allocateInvoiceNumber(tx, 2026)).number).toBe('2026-000051');
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await db.transaction((tx) => allocateInvoiceNumber(tx, 2026))).toEqual({ number: '2026-000051', rank: 51 });
    expect(await db.transaction((tx) => allocateInvoiceNumber(tx, 2027))).toEqual({ number: '2027-000001', rank: 1 });
  });

  it('no invoice for an unpaid, unknown-member, open or 0 € session (decision 195: only money received is invoiced)', async () => {
    const db = database.db;
    const before = await db.select({ n: sql<number>`count(*)::int` }).from(invoices);
    const [id] = [randomUUID()];
    await db.insert(members).values({ id, email: 'unpaid@example.fr', gender: 'homme', onboarding: {} });
    const unpaid = { ...session('cs_test_unpaid', id, FILE_FEE_CENTS), payment_status: 'unpaid' as const };
    await recordCheckoutEvent(db, config, { id: 'evt_unpaid', type: 'checkout.session.completed', livemode: false }, unpaid, new Date());
    const open = { ...session('cs_test_open', id, FILE_FEE_CENTS), status: 'open' as const };
    await recordCheckoutEvent(db, config, { id: 'evt_open', type: 'checkout.session.completed', livemode: false }, open, new Date());
    const free = session('cs_test_free', id, 0);
    expect(free.payment_status).toBe('no_payment_required');
    await recordCheckoutEvent(db, config, { id: 'evt_free', type: 'checkout.session.completed', livemode: false }, free, new Date());
    const nobody = session('cs_test_nobody', randomUUID(), FILE_FEE_CENTS);
    await recordCheckoutEvent(db, config, { id: 'evt_nobody', type: 'checkout.session.completed', livemode: false }, nobody, new Date());
    const after = await db.select({ n: sql<number>`count(*)::int` }).from(invoices);
    expect(after[0]?.n).toBe(before[0]?.n);
  });
});

describe('invoices over HTTP', () => {
  const clock = fakeClock(new Date());
  let product: Awaited<ReturnType<typeof startTestProduct>>;
  let staff: Awaited<ReturnType<typeof signInStaff>>;
  let secret: string;
  beforeAll(async () => {
    // The clock was made when the file was collected: bring it to now, or the staff's TOTP code
    // (computed at the real time) falls outside the server's window when the block above ran long.
    clock.set(new Date());
    product = await startTestProduct({ clock });
    secret = await standInSecret(product.database.db, STRIPE_STAND_IN_SECRET_KEY, 'whsec_');
    staff = await signInStaff(product);
    await staff.passTotp();
  });
  afterAll(() => product.stop());

  let n = 0;
  async function newMember() {
    n += 1;
    const agent = product.agent();
    const email = `facture.${n}.${Date.now()}@example.fr`;
    const created = await signUp(agent, {
      context: 'init',
      email,
      role: 'femme',
      password: 'bismillah-2026',
    });
    expect(created.status).toBe(201);
    const settings = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
    return { agent, id: settings.id, email, gender: 'femme' as const };
  }

  async function deliver(event: unknown) {
    const payload = JSON.stringify(event);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(clock.now().getTime() / 1000) });
    return product.app.request(`${TEST_SITE}/api/v1/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      body: payload,
    });
  }

  type ListAnswer = { invoices: { number: string; totalCents: number; label: string; paymentMethod: string; paidAt: string }[] };

  it('the file fee with a code of 50 €: one invoice "Payé" at 119,00 € showing the discount, mailed once with the PDF, replays add nothing', async () => {
    const member = await newMember();
    await walkToPayment({ member, staff, clock });
    const code = await staff.agent.post('/api/v1/dashboard/coupons', {
      code: 'FACTURE50',
      discount: { kind: 'amount', amountCents: 5_000 },
      validFrom: '2026-01-01',
      validUntil: '2099-12-31',
      maxUses: 1,
    });
    expect(code.status).toBe(201);
    expect((await member.agent.post('/api/v1/user/update', { context: 'coupon', code: 'facture50' })).status).toBe(200);
    const { url } = await member.agent.json<{ url: string }>(member.agent.get('/api/v1/user/payment-link?offer=file_fee'));
    const { csid } = await payOnStandIn(member.agent, url, member.email);

    const list = await member.agent.json<ListAnswer>(member.agent.get('/api/v1/user/invoices'));
    expect(list.invoices).toHaveLength(1);
    const invoice = list.invoices[0] as ListAnswer['invoices'][number];
    expect(invoice).toMatchObject({ totalCents: 11_900, label: 'Frais de dossier', paymentMethod: 'carte bancaire (Stripe, mode test)' });
    expect(invoice.number).toMatch(/^\d{4}-\d{6}$/);

    const pdfResponse = await member.agent.get(`/api/v1/user/invoices/${invoice.number}.pdf`);
    expect(pdfResponse.status).toBe(200);
    expect(pdfResponse.headers.get('content-type')).toBe('application/pdf');
    const pdf = new Uint8Array(await pdfResponse.arrayBuffer());
    const text = pdfText(pdf);
    const agency = DEMO_AGENCY_IDENTITY;
    for (const expected of [
      `Facture n° ${invoice.number}`,
      agency.legalName,
      agency.legalForm,
      agency.address,
      `${agency.rcs} — SIRET ${agency.siret}`,
      agency.vat,
      'Frais de dossier',
      '169,00 €',
      'Remise (code promotionnel)',
      '-50,00 €',
      'Total',
      'Net à payer',
      '119,00 €',
      'Payé',
      'Moyen de paiement : carte bancaire (Stripe, mode test)',
      // The client: name and postal address, as the contract gives them (decision 186).
      'Facturé à\nAmina Benali\n12 rue de la République\n69003 Lyon',
      member.email,
    ])
      expect(text).toContain(expected.replace(/\u202f|\u00a0/g, ' '));
    // Under the VAT franchise, no total is called « TTC ».
    expect(text).not.toContain('TTC');
    // Nothing runs past the A4 page's margins (the footer was cut at the right edge).
    expect(outOfBounds(await pdfPages(pdf))).toEqual([]);

    const mails = await product.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, member.email));
    const invoiceMails = mails.filter((m) => m.kind === 'agency-payment-received');
    expect(invoiceMails).toHaveLength(1);
    expect(invoiceMails[0]?.subject).toBe(`Paiement reçu — facture ${invoice.number}`);
    expect(invoiceMails[0]?.textBody).toContain('119,00');
    const attachment = invoiceMails[0]?.attachments?.[0];
    expect(attachment).toMatchObject({ filename: `facture-${invoice.number}.pdf`, contentType: 'application/pdf' });
    expect(Buffer.from(attachment?.contentBase64 ?? '', 'base64').equals(Buffer.from(pdf))).toBe(true);

    // The same session delivered again (Stripe retries, or the async event): no second invoice or mail.
    const replay = {
      id: `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: Math.floor(clock.now().getTime() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'checkout.session.async_payment_succeeded',
      data: {
        object: {
          id: csid,
          object: 'checkout.session',
          amount_total: 11_900,
          client_reference_id: member.id,
          currency: 'eur',
          livemode: false,
          metadata: { offer_id: 'file_fee' },
          payment_status: 'paid',
          status: 'complete',
        },
      },
    };
    expect((await deliver(replay)).status).toBe(200);
    expect(await (await deliver(replay)).json()).toMatchObject({ outcome: 'duplicate' });
    expect(await product.database.db.select({ n: invoices.number }).from(invoices).where(eq(invoices.memberId, member.id))).toHaveLength(1);
    const after = await product.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, member.email));
    expect(after.filter((m) => m.kind === 'agency-payment-received')).toHaveLength(1);

    // Paying the subscription afterwards: a second invoice, with the next number, at the amount paid.
    const sub = await member.agent.json<{ url: string; amountCents: number }>(
      member.agent.get('/api/v1/user/payment-link?offer=plan_serenity_month'),
    );
    await payOnStandIn(member.agent, sub.url, member.email);
    const both = await member.agent.json<ListAnswer>(member.agent.get('/api/v1/user/invoices'));
    expect(both.invoices).toHaveLength(2);
    const numbers = both.invoices.map((i) => i.number).sort();
    const [year, rank] = (numbers[0] as string).split('-');
    expect(numbers[1]).toBe(`${year}-${String(Number(rank) + 1).padStart(6, '0')}`);
    const second = both.invoices.find((i) => i.number === numbers[1]);
    expect(second?.totalCents).toBe(sub.amountCents);
    expect(second?.label).toMatch(/^Formule .* mensualité 1 sur \d+$/);
  });

  it('only the member and staff at aal2 read an invoice; another member gets 404; bad numbers get a French 400', async () => {
    const owner = await newMember();
    const other = await newMember();
    await walkToPayment({ member: owner, staff, clock });
    const { url } = await owner.agent.json<{ url: string }>(owner.agent.get('/api/v1/user/payment-link?offer=file_fee'));
    await payOnStandIn(owner.agent, url, owner.email);
    const [invoice] = (await owner.agent.json<ListAnswer>(owner.agent.get('/api/v1/user/invoices'))).invoices;
    expect(invoice?.totalCents).toBe(FILE_FEE_CENTS);
    const file = `${invoice?.number}.pdf`;

    expect((await other.agent.json<ListAnswer>(other.agent.get('/api/v1/user/invoices'))).invoices).toEqual([]);
    const foreign = await other.agent.get(`/api/v1/user/invoices/${file}`);
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { error: { message: string } }).error.message).toBe('Facture introuvable.');
    const foreignStaffPath = await other.agent.get(`/api/v1/dashboard/members/${owner.id}/invoices/${file}`);
    expect(foreignStaffPath.status).toBe(403);
    const anonymous = await product.agent().get(`/api/v1/user/invoices/${file}`);
    expect(anonymous.status).toBe(401);
    const bad = await owner.agent.get('/api/v1/user/invoices/..%2F..%2Fetc.pdf');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe('Numéro de facture invalide.');

    const staffList = await staff.agent.json<ListAnswer>(staff.agent.get(`/api/v1/dashboard/members/${owner.id}/invoices`));
    expect(staffList.invoices.map((i) => i.number)).toEqual([invoice?.number]);
    const mine = Buffer.from(await (await owner.agent.get(`/api/v1/user/invoices/${file}`)).arrayBuffer());
    const staffPdf = await staff.agent.get(`/api/v1/dashboard/members/${owner.id}/invoices/${file}`);
    expect(staffPdf.status).toBe(200);
    expect(Buffer.from(await staffPdf.arrayBuffer()).equals(mine)).toBe(true);
    expect(pdfText(mine)).toContain('Moyen de paiement : carte bancaire (Stripe, mode test)');
    // Staff asking with another member's id: not found.
    expect((await staff.agent.get(`/api/v1/dashboard/members/${other.id}/invoices/${file}`)).status).toBe(404);

    // The member's name (from the contract form) is on the invoice; erasure keeps the invoice and
    // its number (accounting document, L123-22) but drops the searchable copy of the name.
    const [stored] = await product.database.db.select().from(invoices).where(eq(invoices.memberId, owner.id));
    expect(stored?.customerName).not.toBe(owner.email);
    expect(pdfText(mine)).toContain(`Facturé à\n${stored?.customerName}`);
    await eraseMemberData(product.database.db, owner.id, { now: clock.now(), requestedBy: 'staff' });
    const [erased] = await product.database.db.select().from(invoices).where(eq(invoices.memberId, owner.id));
    expect(erased).toMatchObject({ number: invoice?.number, customerName: 'Membre effacé', totalCents: FILE_FEE_CENTS });
    expect(Buffer.from(erased?.pdf ?? []).equals(mine)).toBe(true);
  });
});
