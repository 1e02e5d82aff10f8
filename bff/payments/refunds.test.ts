import { describe, expect, it } from 'vitest';
import { refundGateway, standInRefundGateway, stripeRefundGateway } from '#bff/payments/refunds.ts';
import type { GatewayConfig } from '#bff/payments/stripe-settings.ts';

/** Decision 118: the Stripe refund path speaks Stripe's wire format, through the real `stripe` library. */
describe('refund gateways', () => {
  it('without STRIPE_SECRET_KEY the local stand-in records the refund', async () => {
    expect(refundGateway({ nodeEnv: 'development', stripePaymentLinks: undefined, stripeSecretKey: undefined })).toBe(standInRefundGateway);
    const result = await standInRefundGateway.refund({
      checkoutSessionId: 'cs_test_1',
      amountCents: 100,
      idempotencyKey: 'refund-1',
      metadata: {},
    });
    expect(result.id).toMatch(/^re_local_[0-9a-f]{24}$/);
    expect(result.status).toBe('succeeded');
  });

  it('is never the stand-in in production with live payments: it throws instead (issue 59)', () => {
    const live = { nodeEnv: 'production', stripePaymentLinks: {} } as GatewayConfig;
    expect(() => refundGateway({ ...live, stripeSecretKey: undefined })).toThrow(
      /^Remboursements\s: STRIPE_SECRET_KEY est requis en production/,
    );
    expect(refundGateway({ ...live, stripeSecretKey: 'rk_live_0123456789abcdef' }).provider).toBe('stripe');
    // Production on the embedded checkout (explicitly allowed, no real money) keeps the stand-in.
    expect(refundGateway({ nodeEnv: 'production', stripePaymentLinks: undefined, stripeSecretKey: undefined })).toBe(standInRefundGateway);
  });

  it('with a key: GET the checkout session, then POST /v1/refunds (form-encoded) with the idempotency key', async () => {
    const calls: { method: string; url: string; body: string; headers: Record<string, string> }[] = [];
    const fakeFetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      const headers = Object.fromEntries(new Headers(init?.headers).entries());
      calls.push({ method: init?.method ?? 'GET', url, body: typeof init?.body === 'string' ? init.body : '', headers });
      const json = url.includes('/v1/checkout/sessions/')
        ? { id: 'cs_test_abc', object: 'checkout.session', payment_intent: 'pi_test_123' }
        : { id: 're_test_456', object: 'refund', status: 'succeeded', amount: 25_400 };
      return new Response(JSON.stringify(json), { status: 200, headers: { 'content-type': 'application/json', 'request-id': 'req_1' } });
    }) as typeof fetch;
    const gateway = stripeRefundGateway('sk_test_0123456789abcdef', { fetch: fakeFetch });
    expect(gateway.provider).toBe('stripe');
    const result = await gateway.refund({
      checkoutSessionId: 'cs_test_abc',
      amountCents: 25_400,
      idempotencyKey: 'refund-42',
      metadata: { member_id: 'm1', reason: 'withdrawal', refund_row: '42' },
    });
    expect(result).toEqual({ id: 're_test_456', status: 'succeeded' });
    expect(calls.map((c) => `${c.method} ${new URL(c.url).pathname}`)).toEqual([
      'GET /v1/checkout/sessions/cs_test_abc',
      'POST /v1/refunds',
    ]);
    const refund = calls[1];
    const form = new URLSearchParams(refund?.body ?? '');
    expect(form.get('payment_intent')).toBe('pi_test_123');
    expect(form.get('amount')).toBe('25400');
    expect(form.get('reason')).toBe('requested_by_customer');
    expect(form.get('metadata[refund_row]')).toBe('42');
    expect(refund?.headers['idempotency-key']).toBe('refund-42');
    expect(refund?.headers.authorization).toBe('Bearer sk_test_0123456789abcdef');
  });

  it('an instalment (decision 175): its Stripe invoice’s paid payment gives the PaymentIntent, then POST /v1/refunds', async () => {
    const calls: { method: string; url: string; body: string }[] = [];
    const fakeFetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      calls.push({ method: init?.method ?? 'GET', url, body: typeof init?.body === 'string' ? init.body : '' });
      const json = url.includes('/v1/invoice_payments')
        ? {
            object: 'list',
            has_more: false,
            url: '/v1/invoice_payments',
            data: [
              {
                id: 'inpay_1',
                object: 'invoice_payment',
                status: 'paid',
                payment: { type: 'payment_intent', payment_intent: 'pi_test_789' },
              },
            ],
          }
        : { id: 're_test_999', object: 'refund', status: 'pending', amount: 9_500 };
      return new Response(JSON.stringify(json), { status: 200, headers: { 'content-type': 'application/json', 'request-id': 'req_2' } });
    }) as typeof fetch;
    const gateway = stripeRefundGateway('sk_test_0123456789abcdef', { fetch: fakeFetch });
    const result = await gateway.refund({
      checkoutSessionId: 'in_test_mensualite_3',
      amountCents: 9_500,
      idempotencyKey: 'refund-43',
      metadata: { reason: 'outside_contract' },
    });
    expect(result).toEqual({ id: 're_test_999', status: 'pending' });
    const [list, refund] = calls;
    expect(`${list?.method} ${new URL(list?.url ?? 'http://x').pathname}`).toBe('GET /v1/invoice_payments');
    expect(new URL(list?.url ?? 'http://x').searchParams.get('invoice')).toBe('in_test_mensualite_3');
    expect(new URL(list?.url ?? 'http://x').searchParams.get('status')).toBe('paid');
    expect(refund?.method).toBe('POST');
    expect(new URLSearchParams(refund?.body ?? '').get('payment_intent')).toBe('pi_test_789');
  });
});
