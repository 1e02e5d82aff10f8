import { describe, expect, it } from 'vitest';
import type { GatewayConfig } from '#bff/payments/stripe-settings.ts';
import { billingCsv, euroCell, textCell } from '#bff/payments/billing.ts';
import { parisDayStartMs } from '#machines/paris-time.ts';
import { subscriptionOfInvoice } from '#bff/payments/instalments.ts';
import {
  addMonthsUtcSeconds,
  standInSubscriptionGateway,
  stripeSubscriptionGateway,
  subscriptionGateway,
} from '#bff/payments/subscription-gateway.ts';

/** Decision 120: the subscription stops itself after N payments (Stripe's wire format, through the real `stripe` library). */

type Call = { method: string; path: string; body: string; headers: Record<string, string> };
function fakeStripe(subscription: Record<string, unknown>) {
  const calls: Call[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    calls.push({
      method: init?.method ?? 'GET',
      path: url.pathname,
      body: typeof init?.body === 'string' ? init.body : '',
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
    });
    const json = init?.method === 'DELETE' ? { ...subscription, status: 'canceled' } : subscription;
    return new Response(JSON.stringify(json), { status: 200, headers: { 'content-type': 'application/json', 'request-id': 'req_1' } });
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

describe('subscription gateway', () => {
  it('without STRIPE_SECRET_KEY the stand-in (which charges from the schedule) is used', () => {
    const development = { nodeEnv: 'development', stripePaymentLinks: undefined } as const;
    expect(subscriptionGateway({ ...development, stripeSecretKey: undefined })).toBe(standInSubscriptionGateway);
    expect(subscriptionGateway({ ...development, stripeSecretKey: 'sk_test_0123456789abcdef' }).provider).toBe('stripe');
  });

  it('is never the stand-in in production with live payments: it throws instead (issue 59)', () => {
    const live = { nodeEnv: 'production', stripePaymentLinks: {} } as GatewayConfig;
    expect(() => subscriptionGateway({ ...live, stripeSecretKey: undefined })).toThrow(/STRIPE_SECRET_KEY est requis en production/);
    expect(subscriptionGateway({ ...live, stripeSecretKey: 'rk_live_0123456789abcdef' }).provider).toBe('stripe');
    // Production on the embedded checkout (explicitly allowed, no real money) keeps the stand-in.
    expect(subscriptionGateway({ nodeEnv: 'production', stripePaymentLinks: undefined, stripeSecretKey: undefined })).toBe(
      standInSubscriptionGateway,
    );
  });

  it('scheduleEnd: GET the subscription, then POST cancel_at = anchor + N months, without proration, idempotent', async () => {
    // Anchor 31 January 2027 10:00 UTC: 6 monthly periods end on 31 July 2027 10:00 UTC.
    const anchor = Date.UTC(2027, 0, 31, 10) / 1000;
    const { calls, fetch } = fakeStripe({
      id: 'sub_test_1',
      object: 'subscription',
      status: 'active',
      billing_cycle_anchor: anchor,
      cancel_at: null,
    });
    const gateway = stripeSubscriptionGateway('sk_test_0123456789abcdef', { fetch });
    const result = await gateway.scheduleEnd('sub_test_1', 6);
    const expected = Date.UTC(2027, 6, 31, 10) / 1000;
    expect(result).toEqual({ cancelAt: expected });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /v1/subscriptions/sub_test_1', 'POST /v1/subscriptions/sub_test_1']);
    const form = new URLSearchParams(calls[1]?.body ?? '');
    expect(form.get('cancel_at')).toBe(String(expected));
    expect(form.get('proration_behavior')).toBe('none');
    expect(calls[1]?.headers['idempotency-key']).toBe(`cancel-at-sub_test_1-${expected}`);
    expect(calls[1]?.headers.authorization).toBe('Bearer sk_test_0123456789abcdef');
  });

  it('scheduleEnd does nothing more when cancel_at is already set, or the subscription is cancelled', async () => {
    const anchor = Date.UTC(2027, 0, 31, 10) / 1000;
    const done = fakeStripe({
      id: 'sub_test_2',
      object: 'subscription',
      status: 'active',
      billing_cycle_anchor: anchor,
      cancel_at: addMonthsUtcSeconds(anchor, 12),
    });
    await stripeSubscriptionGateway('sk_test_0123456789abcdef', { fetch: done.fetch }).scheduleEnd('sub_test_2', 12);
    expect(done.calls.map((c) => c.method)).toEqual(['GET']);
    const cancelled = fakeStripe({ id: 'sub_test_3', object: 'subscription', status: 'canceled', billing_cycle_anchor: anchor });
    expect(await stripeSubscriptionGateway('sk_test_0123456789abcdef', { fetch: cancelled.fetch }).scheduleEnd('sub_test_3', 6)).toBeNull();
    expect(cancelled.calls.map((c) => c.method)).toEqual(['GET']);
  });

  it('cancelNow: DELETE /v1/subscriptions/:id with an idempotency key', async () => {
    const { calls, fetch } = fakeStripe({ id: 'sub_test_4', object: 'subscription', status: 'active' });
    await stripeSubscriptionGateway('sk_test_0123456789abcdef', { fetch }).cancelNow('sub_test_4');
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['DELETE /v1/subscriptions/sub_test_4']);
    expect(calls[0]?.headers['idempotency-key']).toBe('cancel-sub_test_4');
  });

  it('addMonthsUtcSeconds clamps to the month end as Stripe bills a monthly anchor', () => {
    const jan31 = Date.UTC(2027, 0, 31, 10) / 1000;
    expect(new Date(addMonthsUtcSeconds(jan31, 1) * 1000).toISOString()).toBe('2027-02-28T10:00:00.000Z');
    expect(new Date(addMonthsUtcSeconds(jan31, 13) * 1000).toISOString()).toBe('2028-02-29T10:00:00.000Z');
  });

  it('reads the subscription of an invoice in the current (parent) and the older (top-level) shapes', () => {
    const base = { id: 'in_1', object: 'invoice' as const, amount_paid: 0, livemode: false };
    expect(subscriptionOfInvoice({ ...base, parent: { subscription_details: { subscription: 'sub_a' } } })).toBe('sub_a');
    expect(subscriptionOfInvoice({ ...base, parent: { subscription_details: { subscription: { id: 'sub_b' } } } })).toBe('sub_b');
    expect(subscriptionOfInvoice({ ...base, subscription: 'sub_c' })).toBe('sub_c');
    expect(subscriptionOfInvoice(base)).toBeNull();
  });
});

describe('billing CSV cells', () => {
  it('amounts with a decimal comma and no grouping; text quoted when needed and never a formula', () => {
    expect(euroCell(9_500)).toBe('95,00');
    expect(euroCell(102_000)).toBe('1020,00');
    expect(euroCell(-25_405)).toBe('-254,05');
    expect(euroCell(0)).toBe('0,00');
    expect(textCell('Benali; Amina')).toBe('"Benali; Amina"');
    expect(textCell('dit "Mina"')).toBe('"dit ""Mina"""');
    expect(textCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(textCell('+33 6')).toBe("'+33 6");
  });

  it('an empty export is the BOM and the French header line', () => {
    expect(billingCsv([])).toBe('\uFEFFDate;Type;Membre;E-mail;Libellé;Montant (€);Statut;Facture;Remarque\r\n');
  });

  it('parisDayStartMs: the start of a day in Paris, winter and summer', () => {
    expect(new Date(parisDayStartMs('2026-11-25')).toISOString()).toBe('2026-11-24T23:00:00.000Z');
    expect(new Date(parisDayStartMs('2027-07-01')).toISOString()).toBe('2027-06-30T22:00:00.000Z');
  });
});
