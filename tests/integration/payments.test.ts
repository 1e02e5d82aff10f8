import { createLogger, currentLogger, setLogger } from '#bff/logger.ts';
import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { ConfigError, parseConfig } from '#bff/config.ts';
import { checkoutSessions, members, onboardingEvents, webhookEvents } from '#bff/db/schema.ts';
import { STRIPE_STAND_IN_SECRET_KEY, standInSecret } from '#bff/db/stand-in-secrets.ts';
import { samplePayloads } from '#tests/support/happy-path.ts';
import { deadlinesOfSignature } from '#machines/onboarding/legal-deadlines.ts';
import { FILE_FEE_CENTS, offerById, offerIds } from '#machines/onboarding/plans.ts';
import { walkOnboarding, walkToPayment } from '#tests/support/onboarding-walk.ts';
import { signInStaff } from '#tests/support/staff.ts';
import { startTestProduct, TEST_SITE, type TestAgent } from '#tests/support/test-product.ts';
import { payOnStandIn } from '#tests/support/member-walk.ts';
import { signUp } from '#tests/support/sign-up.ts';

const clock = fakeClock(new Date());
let product: Awaited<ReturnType<typeof startTestProduct>>;
let secret: string;
let staff: Awaited<ReturnType<typeof signInStaff>>;
beforeAll(async () => {
  product = await startTestProduct({ clock });
  secret = await standInSecret(product.database.db, STRIPE_STAND_IN_SECRET_KEY, 'whsec_');
  staff = await signInStaff(product);
  await staff.passTotp();
});
afterAll(() => product.stop());

/** A code staff create (decision 195), valid for years around the test's clock. */
async function staffCode(code: string, discount: Record<string, unknown> = { kind: 'waiver' }) {
  const response = await staff.agent.post('/api/v1/dashboard/coupons', {
    code,
    discount,
    validFrom: '2020-01-01',
    validUntil: '2099-12-31',
    maxUses: 10,
  });
  expect(response.status).toBe(201);
}

let n = 0;
async function newMember(app = product) {
  n += 1;
  const agent = app.agent();
  const email = `paiement.${n}.${Date.now()}@example.fr`;
  const created = await signUp(agent, { context: 'init', email, role: 'femme', password: 'bismillah-2026' });
  expect(created.status).toBe(201);
  const settings = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
  return { agent, id: settings.id, email, gender: 'femme' as const };
}

/** What `POST /api/v1/user/update` answers: the settings with the state, or the error shape. */
type ApiAnswer = { state?: string; error: { code: string; message: string } };

async function send(agent: TestAgent, body: unknown) {
  const response = await agent.post('/api/v1/user/update', body);
  return { status: response.status, body: (await response.json()) as ApiAnswer };
}

/**
 * The whole path up to the signature, then 7 whole days later (decision 105): the member is on
 * the payment step `frais-de-dossier`, where `extra` (e.g. the coupon) is sent.
 */
async function toPayment(member: Awaited<ReturnType<typeof newMember>>, extra: unknown[] = [], staffAgent = staff) {
  await walkToPayment({ member, staff: staffAgent, clock });
  for (const body of extra) {
    const answer = await send(member.agent, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  }
}

/** Events of a walk up to the signature: profil … sub_date. */
const EVENTS_TO_SIGNATURE = 10;

const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
const randomId = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;

/** A Checkout Session event in Stripe's shape. */
function checkoutEvent(
  type: string,
  session: {
    id: string;
    memberId: string | null;
    offerId: string;
    amount: number;
    paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
    email?: string;
  },
  eventId = randomId('evt_'),
) {
  return {
    id: eventId,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: nowSeconds(),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: {
      object: {
        id: session.id,
        object: 'checkout.session',
        amount_total: session.amount,
        amount_subtotal: session.amount,
        client_reference_id: session.memberId,
        currency: 'eur',
        customer_details: { email: session.email ?? 'membre@example.fr' },
        livemode: false,
        metadata: { offer_id: session.offerId },
        mode: 'payment',
        payment_link: 'plink_unknown_link',
        payment_status: session.paymentStatus,
        status: 'complete',
      },
    },
  };
}

/** Posts an event signed by the real stripe library, as Stripe delivers it. */
async function deliver(
  event: unknown,
  options: { secret?: string; timestamp?: number; header?: string | null; app?: typeof product } = {},
) {
  const payload = JSON.stringify(event);
  const header =
    options.header !== undefined
      ? options.header
      : Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: options.secret ?? secret,
          timestamp: options.timestamp ?? nowSeconds(),
        });
  return (options.app ?? product).app.request(`${TEST_SITE}/api/v1/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(header === null ? {} : { 'stripe-signature': header }) },
    body: payload,
  });
}

async function sessionRow(id: string) {
  return product.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id));
}

describe('POST /api/v1/webhooks/stripe', () => {
  it('accepts an event signed by the stripe library and records the session for the member and offer', async () => {
    const member = await newMember();
    await toPayment(member);
    const csid = randomId('cs_test_');
    const response = await deliver(
      checkoutEvent('checkout.session.completed', {
        id: csid,
        memberId: member.id,
        offerId: 'file_fee',
        amount: FILE_FEE_CENTS,
        paymentStatus: 'paid',
      }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ received: true, outcome: 'recorded' });
    const [row] = await sessionRow(csid);
    expect(row).toMatchObject({
      memberId: member.id,
      offerId: 'file_fee',
      amountTotal: FILE_FEE_CENTS,
      currency: 'eur',
      status: 'complete',
      paymentStatus: 'paid',
      livemode: false,
    });
  });

  it('refuses a bad, missing, stale or tampered signature with 400 in the API error shape, and stores nothing', async () => {
    const csid = randomId('cs_test_');
    const event = checkoutEvent('checkout.session.completed', {
      id: csid,
      memberId: null,
      offerId: 'file_fee',
      amount: FILE_FEE_CENTS,
      paymentStatus: 'paid',
    });
    const payload = JSON.stringify(event);
    const attempts = [
      await deliver(event, { secret: 'whsec_not_the_right_secret' }),
      await deliver(event, { header: null }),
      await deliver(event, { header: 'garbage' }),
      await deliver(event, { timestamp: nowSeconds() - 10 * 60 }),
      await product.app.request(`${TEST_SITE}/api/v1/webhooks/stripe`, {
        method: 'POST',
        headers: { 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }), 'content-type': 'application/json' },
        body: payload.replace(String(FILE_FEE_CENTS), '1'),
      }),
    ];
    for (const response of attempts) {
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'INVALID_SIGNATURE' } });
    }
    expect(await sessionRow(csid)).toHaveLength(0);
    expect(await product.database.db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id))).toHaveLength(0);
  });

  it('answers 4xx, never 5xx, to signed nonsense, and ignores other event types', async () => {
    const signedGarbage = '{"id": "evt_x", "type": 42';
    const garbage = await product.app.request(`${TEST_SITE}/api/v1/webhooks/stripe`, {
      method: 'POST',
      headers: { 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: signedGarbage, secret }) },
      body: signedGarbage,
    });
    expect(garbage.status).toBe(400);
    const badSession = checkoutEvent('checkout.session.completed', {
      id: 'not-a-session',
      memberId: 'x',
      offerId: 'file_fee',
      amount: -5,
      paymentStatus: 'paid',
    });
    expect((await deliver(badSession)).status).toBe(400);
    const strangeMember = checkoutEvent('checkout.session.completed', {
      id: randomId('cs_test_'),
      memberId: 'not-a-uuid',
      offerId: 'nope',
      amount: 100,
      paymentStatus: 'paid',
    });
    expect((await deliver(strangeMember)).status).toBe(200);
    const [row] = await sessionRow(strangeMember.data.object.id);
    expect(row).toMatchObject({ memberId: null, offerId: null });
    const other = await deliver({
      id: randomId('evt_'),
      object: 'event',
      type: 'customer.created',
      data: { object: { id: 'cus_1', object: 'customer' } },
    });
    expect(other.status).toBe(200);
    expect(await other.json()).toMatchObject({ outcome: 'ignored' });
  });

  it('tolerates duplicates and any order: async_succeeded before completed, each delivered 3 times → one paid session', async () => {
    const member = await newMember();
    await toPayment(member);
    const csid = randomId('cs_test_');
    const session = { id: csid, memberId: member.id, offerId: 'file_fee', amount: FILE_FEE_CENTS, email: member.email };
    const succeeded = checkoutEvent('checkout.session.async_payment_succeeded', { ...session, paymentStatus: 'paid' });
    // A delayed payment method: `completed` says unpaid, it arrives after the success.
    const completed = checkoutEvent('checkout.session.completed', { ...session, paymentStatus: 'unpaid' });
    const outcomes: string[] = [];
    for (const event of [succeeded, completed, succeeded, completed, completed, succeeded]) {
      const response = await deliver(event);
      expect(response.status).toBe(200);
      outcomes.push(((await response.json()) as { outcome: string }).outcome);
    }
    expect(outcomes).toEqual(['recorded', 'recorded', 'duplicate', 'duplicate', 'duplicate', 'duplicate']);
    // Simultaneous redeliveries too.
    await Promise.all([deliver(completed), deliver(succeeded), deliver(completed)]);
    const rows = await sessionRow(csid);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'complete', paymentStatus: 'paid', memberId: member.id, offerId: 'file_fee' });
    expect(
      await product.database.db
        .select()
        .from(webhookEvents)
        .where(inArray(webhookEvents.id, [succeeded.id, completed.id])),
    ).toHaveLength(2);
    // A failure reported later does not downgrade a paid session either.
    expect((await deliver(checkoutEvent('checkout.session.async_payment_failed', { ...session, paymentStatus: 'unpaid' }))).status).toBe(
      200,
    );
    expect((await sessionRow(csid))[0]?.paymentStatus).toBe('paid');
    const paid = await send(member.agent, { context: 'app', email: member.email, csid });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.state).toBe('frais-de-dossier');
  });

  it('does not let an unpaid session confirm the step', async () => {
    const member = await newMember();
    await toPayment(member);
    const csid = randomId('cs_test_');
    await deliver(
      checkoutEvent('checkout.session.completed', {
        id: csid,
        memberId: member.id,
        offerId: 'file_fee',
        amount: FILE_FEE_CENTS,
        paymentStatus: 'unpaid',
      }),
    );
    const answer = await send(member.agent, { context: 'app', email: member.email, csid });
    expect(answer.status).toBe(402);
    expect(answer.body.error.code).toBe('PAYMENT_NOT_CONFIRMED');
  });
});

describe('GET /api/v1/user/payment-link', () => {
  it('gives the link of the offer the step expects, with the member reference, e-mail, locale and promo code', async () => {
    const member = await newMember();
    expect((await member.agent.get('/api/v1/user/payment-link?offer=file_fee')).status).toBe(409);
    await toPayment(member);
    const response = await member.agent.get('/api/v1/user/payment-link?offer=file_fee');
    expect(response.status).toBe(200);
    const { url, amountCents } = (await response.json()) as { url: string; amountCents: number };
    const link = new URL(url);
    expect(`${link.origin}${link.pathname}`).toBe(`${TEST_SITE}/_local/checkout/file_fee`);
    expect(Object.fromEntries(link.searchParams)).toEqual({ client_reference_id: member.id, prefilled_email: member.email, locale: 'fr' });
    expect(amountCents).toBe(FILE_FEE_CENTS);

    await staffCode('LIEN30', { kind: 'amount', amountCents: 3_000 });
    expect((await send(member.agent, { context: 'coupon', code: 'lien30' })).status).toBe(200);
    const withCoupon = await member.agent.json<{ url: string; amountCents: number }>(
      member.agent.get('/api/v1/user/payment-link?offer=file_fee'),
    );
    expect(new URL(withCoupon.url).searchParams.get('prefilled_promo_code')).toBe('LIEN30');
    expect(withCoupon.amountCents).toBe(FILE_FEE_CENTS - 3_000);
    // The subscription (the chosen plan's first instalment) is expected on the same step.
    const plan = await member.agent.get('/api/v1/user/payment-link?offer=plan_serenity_month');
    expect(plan.status).toBe(200);
    expect(new URL(((await plan.json()) as { url: string }).url).searchParams.has('prefilled_promo_code')).toBe(false);

    const wrongOffer = await member.agent.get('/api/v1/user/payment-link?offer=plan_horizon_month');
    expect(wrongOffer.status).toBe(409);
    expect(await wrongOffer.json()).toMatchObject({ error: { code: 'PAYMENT_NOT_EXPECTED' } });
    expect((await member.agent.get('/api/v1/user/payment-link?offer=pirate')).status).toBe(400);
    expect((await product.agent().get('/api/v1/user/payment-link?offer=file_fee')).status).toBe(401);
  });
});

describe('embedded checkout stand-in', () => {
  it('pays the file fee over HTTP: page, "Payer", signed webhook, redirect with csid, then `app` moves the member on', async () => {
    const member = await newMember();
    await toPayment(member);
    const { url } = await member.agent.json<{ url: string }>(member.agent.get('/api/v1/user/payment-link?offer=file_fee'));
    const { pageHtml, location, csid } = await payOnStandIn(member.agent, url, member.email);
    expect(pageHtml).toContain('<html lang="fr">');
    expect(pageHtml).toContain('Frais de dossier');
    expect(pageHtml).toMatch(/Payer 169,00/);
    expect(location.pathname).toBe('/mon-compte/inscription/frais-de-dossier');
    expect(csid).toMatch(/^cs_test_[A-Za-z0-9_]+$/);
    const [row] = await sessionRow(csid);
    expect(row).toMatchObject({
      memberId: member.id,
      offerId: 'file_fee',
      amountTotal: FILE_FEE_CENTS,
      paymentStatus: 'paid',
      paymentLink: 'plink_local_file_fee',
    });
    // The event went through the production handler: it is in the webhook log, signed and de-duplicated.
    expect((await product.database.db.select().from(webhookEvents).where(eq(webhookEvents.provider, 'stripe'))).length).toBeGreaterThan(0);

    const answer = await send(member.agent, { context: 'app', email: member.email, csid });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.state).toBe('frais-de-dossier');
    // Used once only.
    const again = await send(member.agent, { context: 'app', email: member.email, csid });
    expect(again.status).toBe(409);
    expect((await member.agent.get('/api/v1/user/payment-link?offer=file_fee')).status).toBe(409);

    // Then the subscription, on the same step: the member moves on to the 14-day withdrawal period.
    const sub = await member.agent.json<{ url: string; amountCents: number }>(
      member.agent.get('/api/v1/user/payment-link?offer=plan_serenity_month'),
    );
    const paidSub = await payOnStandIn(member.agent, sub.url, member.email);
    expect(paidSub.location.pathname).toBe('/mon-compte/inscription/frais-de-dossier');
    const subscribed = await send(member.agent, { context: 'sub', email: member.email, csid: paidSub.csid });
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200);
    expect(subscribed.body.state).toBe('attente.delai-retractation');
  });

  it('a code waiving the file fee settles it without any checkout: no « Payer 0,00 € », no 0 € session (decision 195)', async () => {
    await staffCode('OFFERTPAIEMENT');
    const member = await newMember();
    await toPayment(member, [{ context: 'coupon', code: 'OFFERTPAIEMENT' }]);
    const link = await member.agent.get('/api/v1/user/payment-link?offer=file_fee');
    expect(link.status).toBe(409);
    expect(await link.json()).toMatchObject({ error: { code: 'PAYMENT_NOT_EXPECTED' } });
    expect(await product.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.memberId, member.id))).toEqual([]);
  });

  it('refuses a forged csid, another member’s csid, and a promo code slipped into a link without the coupon', async () => {
    const member = await newMember();
    const other = await newMember();
    await toPayment(member);
    await toPayment(other);
    const forged = await send(member.agent, { context: 'app', email: member.email, csid: 'cs_test_forged_0000000000001' });
    expect(forged.status).toBe(402);
    expect(forged.body.error.code).toBe('PAYMENT_NOT_CONFIRMED');

    const otherLink = await other.agent.json<{ url: string }>(other.agent.get('/api/v1/user/payment-link?offer=file_fee'));
    const { csid: othersCsid } = await payOnStandIn(other.agent, otherLink.url, other.email);
    const foreign = await send(member.agent, { context: 'app', email: member.email, csid: othersCsid });
    expect(foreign.status).toBe(402);
    expect(foreign.body.error.message).toContain('ne correspond pas à votre compte');

    const { url } = await member.agent.json<{ url: string }>(member.agent.get('/api/v1/user/payment-link?offer=file_fee'));
    const tampered = new URL(url);
    await staffCode('VOLE50', { kind: 'amount', amountCents: 5_000 });
    tampered.searchParams.set('prefilled_promo_code', 'VOLE50');
    const { csid: cheapCsid } = await payOnStandIn(member.agent, tampered.toString(), member.email);
    const cheap = await send(member.agent, { context: 'app', email: member.email, csid: cheapCsid });
    expect(cheap.status).toBe(402);
    expect(cheap.body.error.message).toContain('montant');

    const [row] = await product.database.db.select().from(members).where(eq(members.id, member.id));
    expect(row?.version).toBe(EVENTS_TO_SIGNATURE);
    // The other member can still use their own payment.
    expect((await send(other.agent, { context: 'app', email: other.email, csid: othersCsid })).status).toBe(200);
  });

  it('shows an accessible French page, and 404 for an unknown offer', async () => {
    const agent = product.agent();
    const page = await agent.get('/_local/checkout/plan_serenity_month?client_reference_id=abc&prefilled_email=a%40example.fr&locale=fr');
    expect(page.status).toBe(200);
    const body = await page.text();
    expect(body).toContain('Sérénité');
    expect(body).toContain('<label for="email">');
    expect(body).toContain('mensualité');
    expect((await agent.get('/_local/checkout/pirate')).status).toBe(404);
    expect((await agent.get('/_local/stand-ins.css')).headers.get('content-type')).toContain('text/css');
  });
});

describe('no money before the end of the 7-day renunciation period, in civil days (L224-91, decisions 105 and 165)', () => {
  type Walked = Awaited<ReturnType<typeof newMember>>;

  /** A member 1 ms before the payment opens (24:00 Paris on the renunciation period's last day), or (signed: false) one who has only chosen a plan. */
  async function tooEarly(signed = true): Promise<{ member: Walked; opensAt: number | null }> {
    const member = await newMember();
    const { signedAt } = await walkOnboarding({ member, staff, clock, until: signed ? 'sub_date' : 'sel_plan' });
    if (signedAt === null) return { member, opensAt: null };
    const opensAt = deadlinesOfSignature(signedAt).paymentOpensAtMs;
    clock.set(new Date(opensAt - 1));
    return { member, opensAt };
  }

  /** Everything a payment could leave behind: the member, their events and sessions, the webhook log. */
  async function traces(memberId: string) {
    const db = product.database.db;
    const [row] = await db.select().from(members).where(eq(members.id, memberId));
    return {
      version: row?.version,
      onboarding: row?.onboarding,
      events: (await db.select().from(onboardingEvents).where(eq(onboardingEvents.memberId, memberId))).length,
      sessions: (await db.select().from(checkoutSessions).where(eq(checkoutSessions.memberId, memberId))).length,
      webhookEvents: (await db.select().from(webhookEvents)).length,
    };
  }

  it.each([
    ['after the plan, before any contract', false, 'informations-et-tarifs'],
    ['1 ms before the payment opens', true, 'attente-contrat.delai-renonciation'],
  ])('the payment links are refused %s (409 with the state, in French)', async (_label, signed, state) => {
    const { member } = await tooEarly(signed);
    for (const offer of ['file_fee', 'plan_serenity_month']) {
      const response = await member.agent.get(`/api/v1/user/payment-link?offer=${offer}`);
      expect(response.status).toBe(409);
      const body = (await response.json()) as { error: { code: string; message: string; state: string } };
      expect(body.error).toMatchObject({ code: 'PAYMENT_NOT_EXPECTED', state });
      expect(body.error.message).toContain('L224\u201191');
    }
  });

  it('the checkout stand-in refuses to show or take a payment (409), records nothing, and does not redirect', async () => {
    const { member } = await tooEarly();
    const before = await traces(member.id);
    for (const offer of ['file_fee', 'plan_serenity_month']) {
      const query = new URLSearchParams({ client_reference_id: member.id, prefilled_email: member.email, locale: 'fr' });
      const page = await member.agent.get(`/_local/checkout/${offer}?${query}`);
      expect(page.status).toBe(409);
      const html = await page.text();
      expect(html).toContain('Paiement impossible pour le moment');
      expect(html).toContain('L224\u201191');
      expect(html).not.toContain('<form');
      const form = new URLSearchParams({ client_reference_id: member.id, prefilled_promo_code: '', email: member.email });
      const posted = await member.agent.request('POST', `/_local/checkout/${offer}`, form.toString(), {
        'content-type': 'application/x-www-form-urlencoded',
        origin: TEST_SITE,
      });
      expect(posted.status).toBe(409);
      expect(posted.headers.get('location')).toBeNull();
    }
    expect(await traces(member.id)).toEqual(before);
  });

  it('a signed Stripe webhook is acknowledged, logged as refused, and records nothing; the same payment at day 7 is recorded', async () => {
    const { member, opensAt } = await tooEarly();
    const before = await traces(member.id);
    const csid = randomId('cs_test_');
    const session = { id: csid, memberId: member.id, email: member.email, paymentStatus: 'paid' as const };
    const logged: string[] = [];
    const previous = currentLogger();
    setLogger(createLogger('warn', { write: (line: string) => void logged.push(line) }));
    try {
      for (const offer of ['file_fee', 'plan_serenity_month'] as const) {
        const response = await deliver(
          checkoutEvent('checkout.session.completed', { ...session, offerId: offer, amount: offerById(offer).amountCents }),
        );
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ received: true, outcome: 'refused' });
      }
      const refusals = logged
        .map((line) => JSON.parse(line) as { msg: string; memberId?: string })
        .filter((entry) => entry.memberId === member.id);
      expect(refusals).toHaveLength(2);
      expect(refusals.every((entry) => entry.msg.includes('refusé'))).toBe(true);
    } finally {
      setLogger(previous);
    }
    expect(await traces(member.id)).toEqual(before);
    expect(await sessionRow(csid)).toHaveLength(0);

    clock.set(new Date(opensAt ?? 0));
    const onTime = await deliver(checkoutEvent('checkout.session.completed', { ...session, offerId: 'file_fee', amount: FILE_FEE_CENTS }));
    expect(await onTime.json()).toMatchObject({ outcome: 'recorded' });
    expect(await sessionRow(csid)).toHaveLength(1);
    expect((await send(member.agent, { context: 'app', email: member.email, csid })).body.state).toBe('frais-de-dossier');
  });

  it('`app`, `sub` and the coupon are refused (409 with the state) even with a paid session, which stays unused', async () => {
    const { member } = await tooEarly();
    const db = product.database.db;
    const sample = samplePayloads(member, clock.now().getTime());
    // Sessions as a webhook would have recorded them (had it been allowed to).
    await db.insert(checkoutSessions).values([
      {
        id: 'cs_test_early_file_fee_01',
        memberId: member.id,
        offerId: 'file_fee',
        amountTotal: FILE_FEE_CENTS,
        currency: 'eur',
        status: 'complete',
        paymentStatus: 'paid',
      },
      {
        id: 'cs_test_early_plan_0001',
        memberId: member.id,
        offerId: 'plan_serenity_month',
        amountTotal: offerById('plan_serenity_month').amountCents,
        currency: 'eur',
        status: 'complete',
        paymentStatus: 'paid',
      },
    ]);
    const before = await traces(member.id);
    for (const body of [
      { ...sample.app, csid: 'cs_test_early_file_fee_01' },
      { ...sample.sub, csid: 'cs_test_early_plan_0001' },
      sample.coupon,
    ]) {
      const answer = await send(member.agent, body);
      expect(answer.status, body.context).toBe(409);
      expect(answer.body.error.code).toBe('TRANSITION_REFUSED');
      expect(answer.body.state ?? (answer.body.error as { state?: string }).state).toBe('attente-contrat.delai-renonciation');
      expect(answer.body.error.message).toContain('L224\u201191');
    }
    expect(await traces(member.id)).toEqual(before);
    const unused = await db.select().from(checkoutSessions).where(eq(checkoutSessions.memberId, member.id));
    expect(unused.map((row) => row.consumedAt)).toEqual([null, null]);
  });
});

describe('configured Payment Links (hosted Stripe)', () => {
  const links = Object.fromEntries(
    offerIds.map((id) => [id, { url: `https://buy.stripe.com/test_${id.replaceAll('_', '')}`, id: `plink_${id.replaceAll('_', '')}` }]),
  );
  links.file_fee = { url: 'https://buy.stripe.com/test_fileFee01', id: 'plink_1FileFee' };

  it('validates STRIPE_PAYMENT_LINKS at start with one clear line', () => {
    const base = { NODE_ENV: 'test', STRIPE_WEBHOOK_SECRET: 'whsec_configured_secret' };
    expect(() => parseConfig({ ...base, STRIPE_PAYMENT_LINKS: '{not json' })).toThrow(/STRIPE_PAYMENT_LINKS doit être un objet JSON/);
    expect(() => parseConfig({ ...base, STRIPE_PAYMENT_LINKS: JSON.stringify({ file_fee: 'https://buy.stripe.com/test_x' }) })).toThrow(
      /STRIPE_PAYMENT_LINKS\.plan_horizon_month/,
    );
    expect(() => parseConfig({ ...base, STRIPE_PAYMENT_LINKS: JSON.stringify({ ...links, file_fee: 'http://insecure.example' }) })).toThrow(
      ConfigError,
    );
    expect(() =>
      parseConfig({ ...base, STRIPE_PAYMENT_LINKS: JSON.stringify({ ...links, file_fee: 'https://buy.stripe.com/live' }) }),
    ).toThrow(/STRIPE_PAYMENT_LINKS\.file_fee doit être un lien de mode test/);
    expect(() => parseConfig({ NODE_ENV: 'test', STRIPE_PAYMENT_LINKS: JSON.stringify(links) })).toThrow(
      /STRIPE_WEBHOOK_SECRET est requis/,
    );
    const config = parseConfig({ ...base, STRIPE_PAYMENT_LINKS: JSON.stringify(links) });
    expect(config.stripePaymentLinks?.file_fee).toEqual({ url: 'https://buy.stripe.com/test_fileFee01', id: 'plink_1FileFee' });
    expect(config.stripeMode).toBe('test');
  });

  it('links to the configured link, verifies with the configured secret, maps payment_link back to the offer, ignores live events', async () => {
    const hostedSecret = 'whsec_configured_for_tests';
    // A fresh product: its clock starts at the real time again, so that the staff TOTP (computed on
    // the real time) is accepted; the walks of the tests above moved the shared clock weeks ahead.
    clock.set(new Date());
    const hosted = await startTestProduct({
      clock,
      env: { STRIPE_PAYMENT_LINKS: JSON.stringify(links), STRIPE_WEBHOOK_SECRET: hostedSecret },
    });
    try {
      const member = await newMember(hosted);
      const hostedStaff = await signInStaff(hosted);
      await hostedStaff.passTotp();
      await toPayment(member, [], hostedStaff);
      const { url } = await member.agent.json<{ url: string }>(member.agent.get('/api/v1/user/payment-link?offer=file_fee'));
      expect(url).toBe(
        `https://buy.stripe.com/test_fileFee01?client_reference_id=${member.id}&prefilled_email=${encodeURIComponent(member.email)}&locale=fr`,
      );
      expect((await hosted.agent().get('/_local/checkout/file_fee')).status).toBe(404);

      const csid = randomId('cs_test_');
      const event = checkoutEvent('checkout.session.completed', {
        id: csid,
        memberId: member.id,
        offerId: 'plan_horizon_month',
        amount: FILE_FEE_CENTS,
        paymentStatus: 'paid',
      });
      (event.data.object as Record<string, unknown>).payment_link = 'plink_1FileFee';
      expect((await deliver(event, { app: hosted })).status).toBe(400); // signed with the stand-in's secret
      expect((await deliver(event, { app: hosted, secret: hostedSecret })).status).toBe(200);
      const [row] = await hosted.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, csid));
      expect(row?.offerId).toBe('file_fee');

      const live = checkoutEvent('checkout.session.completed', {
        id: randomId('cs_live_'),
        memberId: member.id,
        offerId: 'file_fee',
        amount: FILE_FEE_CENTS,
        paymentStatus: 'paid',
      });
      live.data.object.livemode = true;
      const ignored = await deliver(live, { app: hosted, secret: hostedSecret });
      expect(await ignored.json()).toMatchObject({ outcome: 'ignored' });
      expect(await hosted.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, live.data.object.id))).toHaveLength(0);

      expect((await send(member.agent, { context: 'app', email: member.email, csid })).status).toBe(200);
    } finally {
      await hosted.stop();
    }
  });
});
