import { randomBytes, randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendlySignatureHeader } from '#bff/booking/calendly-signature.ts';
import { CALENDLY_STAND_IN_KEY, STRIPE_STAND_IN_SECRET_KEY, standInSecret } from '#bff/db/stand-in-secrets.ts';
import { databaseDigest, digestDiff } from '#tests/security/support.ts';
import { startTestProduct, TEST_SITE } from '#tests/support/test-product.ts';

/**
 * Webhooks replayed, duplicated (also concurrently), reordered and forged: applied exactly once
 * or refused. Complements tests/integration/payments.test.ts and booking.test.ts (signatures,
 * sequential duplicates, order) with concurrent duplicate deliveries and stale replays.
 */

let product: Awaited<ReturnType<typeof startTestProduct>>;
let stripeSecret: string;
let calendlyKey: string;
beforeAll(async () => {
  product = await startTestProduct();
  stripeSecret = await standInSecret(product.database.db, STRIPE_STAND_IN_SECRET_KEY, 'whsec_');
  calendlyKey = await standInSecret(product.database.db, CALENDLY_STAND_IN_KEY, '');
});
afterAll(() => product.stop());

const now = () => Math.floor(Date.now() / 1000);

function stripeEvent(type: string, sessionId: string, paymentStatus: 'paid' | 'unpaid') {
  return {
    id: `evt_${randomBytes(10).toString('hex')}`,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: now(),
    livemode: false,
    type,
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        amount_total: 9000,
        client_reference_id: randomUUID(),
        currency: 'eur',
        livemode: false,
        metadata: { offer_id: 'file_fee' },
        payment_status: paymentStatus,
        status: paymentStatus === 'paid' ? 'complete' : 'open',
      },
    },
  };
}

function deliverStripe(payload: string, header: string) {
  return product.app.request(`${TEST_SITE}/api/v1/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    body: payload,
  });
}

async function count(table: string, where: string, params: unknown[]) {
  const [row] = await product.database.query<{ n: number }>(`select count(*)::int as n from ${table} where ${where}`, params);
  return row?.n ?? 0;
}

describe('Stripe webhooks', () => {
  it('the same delivery sent 12 times at once is recorded once', async () => {
    const sessionId = `cs_test_${randomBytes(8).toString('hex')}`;
    const event = stripeEvent('checkout.session.completed', sessionId, 'paid');
    const payload = JSON.stringify(event);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: stripeSecret, timestamp: now() });
    const answers = await Promise.all(Array.from({ length: 12 }, () => deliverStripe(payload, header)));
    const outcomes = await Promise.all(answers.map(async (r) => ({ status: r.status, outcome: (await r.json()).outcome })));
    expect(outcomes.every((o) => o.status === 200)).toBe(true);
    expect(outcomes.filter((o) => o.outcome === 'recorded')).toHaveLength(1);
    expect(outcomes.filter((o) => o.outcome === 'duplicate')).toHaveLength(11);
    expect(await count('webhook_events', 'id = $1', [event.id])).toBe(1);
    expect(await count('checkout_sessions', 'id = $1', [sessionId])).toBe(1);
  });

  it('a paid session never goes back to unpaid, whatever the order and concurrency of its events', async () => {
    const sessionId = `cs_test_${randomBytes(8).toString('hex')}`;
    const events = [
      stripeEvent('checkout.session.completed', sessionId, 'paid'),
      stripeEvent('checkout.session.async_payment_failed', sessionId, 'unpaid'),
      stripeEvent('checkout.session.completed', sessionId, 'unpaid'),
      stripeEvent('checkout.session.async_payment_succeeded', sessionId, 'paid'),
    ];
    await Promise.all(
      events.map((e) => {
        const payload = JSON.stringify(e);
        return deliverStripe(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: stripeSecret, timestamp: now() }));
      }),
    );
    const [row] = await product.database.query<{ payment_status: string }>('select payment_status from checkout_sessions where id = $1', [
      sessionId,
    ]);
    expect(row?.payment_status).toBe('paid');
  });

  it('a captured delivery replayed after the tolerance, or forged, is refused and changes nothing', async () => {
    const event = stripeEvent('checkout.session.completed', `cs_test_${randomBytes(8).toString('hex')}`, 'paid');
    const payload = JSON.stringify(event);
    const before = await databaseDigest(product.database);
    // (A future timestamp signed with the real secret is accepted, as by Stripe's own library:
    // only the secret's holder can make one, so it is no replay.)
    const stale = Stripe.webhooks.generateTestHeaderString({ payload, secret: stripeSecret, timestamp: now() - 3600 });
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_not_the_secret', timestamp: now() });
    const tampered = Stripe.webhooks.generateTestHeaderString({ payload, secret: stripeSecret, timestamp: now() });
    for (const [label, body, header] of [
      ['stale replay', payload, stale],
      ['forged', payload, forged],
      ['tampered body', payload.replace('"paid"', '"unpaid"'), tampered],
    ] as const) {
      const response = await deliverStripe(body, header);
      expect(response.status, label).toBe(400);
      expect((await response.json()).error.code, label).toBe('INVALID_SIGNATURE');
    }
    expect(digestDiff(before, await databaseDigest(product.database))).toBe('');
  });
});

describe('Calendly webhooks', () => {
  const invitee = (uri: string) => ({
    event: 'invitee.created',
    created_at: new Date().toISOString(),
    payload: {
      uri,
      email: 'x@example.fr',
      name: 'X',
      status: 'active',
      scheduled_event: { uri: `${uri}/event`, start_time: '2030-01-01T10:00:00.000Z', end_time: '2030-01-01T10:15:00.000Z' },
      tracking: { utm_content: null },
    },
  });
  const deliver = (payload: string, header: string) =>
    product.app.request(`${TEST_SITE}/api/v1/webhooks/calendly`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'calendly-webhook-signature': header },
      body: payload,
    });

  it('the same delivery sent 12 times at once books once', async () => {
    const uri = `https://api.calendly.com/scheduled_events/${randomUUID()}/invitees/${randomUUID()}`;
    const payload = JSON.stringify(invitee(uri));
    const header = calendlySignatureHeader(payload, calendlyKey, now());
    const answers = await Promise.all(Array.from({ length: 12 }, () => deliver(payload, header)));
    const outcomes = await Promise.all(answers.map(async (r) => ({ status: r.status, outcome: (await r.json()).outcome })));
    expect(outcomes.every((o) => o.status === 200)).toBe(true);
    expect(outcomes.filter((o) => o.outcome === 'recorded')).toHaveLength(1);
    expect(await count('bookings', 'invitee_uri = $1', [uri])).toBe(1);
    expect(await count('webhook_events', 'id = $1', [`invitee.created:${uri}`])).toBe(1);
  });

  it('a stale replay or a forged signature is refused and changes nothing', async () => {
    const payload = JSON.stringify(invitee(`https://api.calendly.com/scheduled_events/${randomUUID()}/invitees/${randomUUID()}`));
    const before = await databaseDigest(product.database);
    for (const header of [
      calendlySignatureHeader(payload, calendlyKey, now() - 3600),
      calendlySignatureHeader(payload, 'not-the-key-0123456789', now()),
      `t=${now()},v1=${'0'.repeat(64)}`,
    ]) {
      const response = await deliver(payload, header);
      expect(response.status).toBe(400);
    }
    expect(digestDiff(before, await databaseDigest(product.database))).toBe('');
  });
});
