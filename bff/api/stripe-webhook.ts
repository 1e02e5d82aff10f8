import { Hono } from 'hono';
import type Stripe from 'stripe';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { cancelStoppedSubscriptions } from '#bff/payments/contract-ledger.ts';
import { executePendingRefunds, refundGateway } from '#bff/payments/refunds.ts';
import { ApiError } from '#bff/http/errors.ts';
import { CheckoutSessionSchema, offerOfSubscription, recordCheckoutEvent, type WebhookOutcome } from '#bff/payments/checkout-events.ts';
import { INSTALMENT_EVENTS, type InstalmentEventType, recordInstalmentEvent, StripeInvoiceSchema } from '#bff/payments/instalments.ts';
import { safelyStopping, subscriptionGateway } from '#bff/payments/subscription-gateway.ts';
import { paymentNotYetAllowed } from '#bff/payments/payment-window.ts';
import { isPlanId, type PlanId, planById } from '#machines/onboarding/plans.ts';
import { stripeLibrary } from '#bff/payments/stripe-library.ts';
import { offerOfSession, stripeWebhookSecret } from '#bff/payments/stripe-settings.ts';
import { log } from '#bff/logger.ts';

/**
 * `POST /api/v1/webhooks/stripe`: the only way the server learns that a checkout session is paid.
 * The `Stripe-Signature` header is verified on the raw body with the real `stripe` library; the
 * event is de-duplicated on its id and the session recorded in one transaction
 * (`bff/payments/checkout-events.ts`). Deliveries may come in any order and any number of times:
 * a session never goes back from paid or complete.
 */

/** Checkout events that change what the server knows of a session. */
const CHECKOUT_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function onInstalmentEvent(deps: ApiDeps, event: Stripe.Event, now: Date) {
  const invoice = v.safeParse(StripeInvoiceSchema, (event.data as { object?: unknown } | undefined)?.object);
  if (!invoice.success || typeof event.id !== 'string' || event.id.length > 255) {
    throw new ApiError(400, 'INVALID_EVENT', 'Événement de paiement illisible.');
  }
  const type = event.type as InstalmentEventType;
  const result = await recordInstalmentEvent(
    deps.database.db,
    deps.config,
    { id: event.id, type, livemode: event.livemode },
    invoice.output,
    now,
  );
  if (result.outcome === 'recorded') deps.mailQueued();
  // A charge for a stopped contract was refunded in the ledger: the money goes back now (decision 175).
  if (result.outsideContract && result.memberId) {
    await executePendingRefunds(deps.database.db, refundGateway(deps.config), { now, memberId: result.memberId });
    await cancelStoppedSubscriptions(deps.database.db, subscriptionGateway(deps.config), { now, memberId: result.memberId });
  }
  const subscriptionId = result.subscriptionId;
  if (result.outcome === 'recorded' && subscriptionId) {
    const gateway = subscriptionGateway(deps.config);
    const offerId = await offerOfSubscription(deps.database.db, subscriptionId);
    // Outside the contract: the subscription is stopped at once; otherwise its end is (re)scheduled.
    if (result.outsideContract) await safelyStopping('annulation', subscriptionId, () => gateway.cancelNow(subscriptionId));
    else if (offerId && isPlanId(offerId))
      await safelyStopping('fin programmée', subscriptionId, () =>
        gateway.scheduleEnd(subscriptionId, planById(offerId as PlanId).installments),
      );
  }
  return { received: true, outcome: result.outcome };
}

function invalidSignature(): ApiError {
  return new ApiError(400, 'INVALID_SIGNATURE', 'Signature du webhook invalide.');
}

export function stripeWebhookRoutes(deps: ApiDeps) {
  return new Hono().post('/webhooks/stripe', async (c) => {
    const header = c.req.header('stripe-signature');
    const body = await c.req.text();
    if (!header) throw invalidSignature();
    const secret = await stripeWebhookSecret(deps.config, deps.database.db);
    const now = deps.clock.now();
    let event: Stripe.Event;
    try {
      event = await (await stripeLibrary()).webhooks.constructEventAsync(body, header, secret, undefined, undefined, now.getTime());
    } catch {
      throw invalidSignature();
    }
    // Later instalments of a monthly plan (decision 120).
    if ((INSTALMENT_EVENTS as readonly string[]).includes(event.type)) return c.json(await onInstalmentEvent(deps, event, now), 200);
    if (!(CHECKOUT_EVENTS as readonly string[]).includes(event.type)) {
      return c.json({ received: true, outcome: 'ignored' as WebhookOutcome }, 200);
    }
    const session = v.safeParse(CheckoutSessionSchema, (event.data as { object?: unknown } | undefined)?.object);
    if (!session.success || typeof event.id !== 'string' || event.id.length > 255) {
      throw new ApiError(400, 'INVALID_EVENT', 'Événement de paiement illisible.');
    }
    const early = await paymentNotYetAllowed(deps.database.db, session.output.client_reference_id ?? null, now);
    if (early) {
      log.warn('stripe : événement refusé, paiement avant signature + 7 jours (L224‑91), non enregistré, à rembourser s’il a été débité', {
        eventId: event.id,
        memberId: early.memberId,
        state: early.state,
        sessionId: session.output.id,
      });
      return c.json({ received: true, outcome: 'refused' as WebhookOutcome }, 200);
    }
    const outcome = await recordCheckoutEvent(deps.database.db, deps.config, event, session.output, now);
    // A payment for a stopped contract, refunded in the ledger, is carried out now (decision 175).
    const payer = session.output.client_reference_id;
    if (outcome === 'recorded' && payer && UUID.test(payer)) {
      const refunded = await executePendingRefunds(deps.database.db, refundGateway(deps.config), { now, memberId: payer.toLowerCase() });
      if (refunded.succeeded + refunded.failed > 0) deps.mailQueued();
    }
    // A monthly plan's subscription cancels itself after its N-th payment (decision 120).
    const subscription = session.output.subscription;
    const monthly = offerOfSession(deps.config, session.output);
    if (outcome === 'recorded' && subscription && monthly && isPlanId(monthly) && planById(monthly).type === 'monthly') {
      const id = typeof subscription === 'string' ? subscription : subscription.id;
      await safelyStopping('fin programmée', id, () => subscriptionGateway(deps.config).scheduleEnd(id, planById(monthly).installments));
    }
    if (outcome === 'ignored')
      log.warn('stripe : événement ignoré (autre mode)', {
        eventId: event.id,
        livemode: session.output.livemode,
        mode: deps.config.stripeMode,
      });
    return c.json({ received: true, outcome }, 200);
  });
}
