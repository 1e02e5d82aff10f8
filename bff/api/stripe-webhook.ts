import { eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type Stripe from 'stripe';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import type { Config } from '#bff/config.ts';
import type { Db, Transaction } from '#bff/db/database.ts';
import { invoices } from '#bff/db/invoices-schema.ts';
import { checkoutSessions, members } from '#bff/db/schema.ts';
import { firstNameOf } from '#bff/mail/agency-mail-triggers.ts';
import { cancelStoppedSubscriptions, ensureContract, refundOutsideCharge } from '#bff/payments/contract-ledger.ts';
import { executePendingRefunds, refundGateway } from '#bff/payments/refunds.ts';
import { instantMs } from '#machines/onboarding/instant.ts';
import { termEndsAtMs, termOver } from '#machines/onboarding/periods.ts';
import { onboardingRecordSchema } from '#machines/onboarding/record.ts';
import { recordWebhookEventOnce } from '#bff/db/webhook-events.ts';
import { ApiError } from '#bff/http/errors.ts';
import { invoiceRecordedPayment } from '#bff/invoices/invoices.ts';
import { contractStoppedAt } from '#bff/payments/instalment-schedules.ts';
import { INSTALMENT_EVENTS, type InstalmentEventType, recordInstalmentEvent, StripeInvoiceSchema } from '#bff/payments/instalments.ts';
import { safelyStopping, subscriptionGateway } from '#bff/payments/subscription-gateway.ts';
import { settleExpectedInstalments } from '#bff/payments/expected-instalments.ts';
import { paymentNotYetAllowed } from '#bff/payments/payment-window.ts';
import { isPlanId, type PlanId, planById } from '#machines/onboarding/plans.ts';
import { stripeLibrary } from '#bff/payments/stripe-library.ts';
import { offerOfSession, stripeWebhookSecret } from '#bff/payments/stripe-settings.ts';
import { log } from '#bff/logger.ts';

/**
 * `POST /api/v1/webhooks/stripe`: the only way the server learns that a checkout session is paid.
 * The `Stripe-Signature` header is verified on the raw body with the real `stripe` library; the
 * event is de-duplicated on its id and the session recorded in one transaction. Deliveries may
 * come in any order and any number of times: a session never goes back from paid or complete.
 */

/** Checkout events that change what the server knows of a session. */
const CHECKOUT_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const optionalText = v.nullish(v.pipe(v.string(), v.maxLength(500)));

/** The fields of a Checkout Session the product reads (stripe-node `Checkout.Session`). */
const CheckoutSessionSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^cs_[A-Za-z0-9_]{1,250}$/)),
  object: v.literal('checkout.session'),
  client_reference_id: optionalText,
  amount_total: v.nullish(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(2_147_483_647))),
  currency: optionalText,
  status: v.nullish(v.picklist(['open', 'complete', 'expired'])),
  payment_status: v.picklist(['paid', 'unpaid', 'no_payment_required']),
  payment_link: optionalText,
  customer_details: v.nullish(v.object({ email: optionalText })),
  customer_email: optionalText,
  metadata: v.nullish(v.record(v.string(), v.string())),
  livemode: v.boolean(),
  /** A monthly plan's session opens a subscription (decision 120): later instalments name it. */
  subscription: v.nullish(
    v.union([
      v.pipe(v.string(), v.regex(/^sub_[A-Za-z0-9_]{1,250}$/)),
      v.object({ id: v.pipe(v.string(), v.regex(/^sub_[A-Za-z0-9_]{1,250}$/)) }),
    ]),
  ),
});
export type CheckoutSessionObject = v.InferOutput<typeof CheckoutSessionSchema>;

/**
 * `refused`: the session names a member who may not pay yet (before signature + 7 days, L224-91;
 * decision 105). It is acknowledged (200, so Stripe does not retry), logged, and records nothing:
 * no event row, no session, so it can never confirm a step. Money taken that way must be refunded.
 */
export type WebhookOutcome = 'recorded' | 'duplicate' | 'ignored' | 'refused';

/**
 * Records one verified checkout event: the event row (insert-if-absent) and the session, merged
 * monotonically (status complete and payment paid are never downgraded; known fields are kept),
 * in one transaction. A duplicate event changes nothing.
 */
export async function recordCheckoutEvent(
  db: Db,
  config: Config,
  event: { id: string; type: string; livemode: boolean },
  session: CheckoutSessionObject,
  now: Date,
): Promise<WebhookOutcome> {
  return db.transaction(async (tx) => {
    if (!(await recordWebhookEventOnce(tx, { provider: 'stripe', id: event.id, type: event.type, payload: event }, now)))
      return 'duplicate';
    // A test-mode event never pays anything in live mode, and the other way round.
    if (session.livemode !== (config.stripeMode === 'live')) return 'ignored';
    const reference = session.client_reference_id ?? null;
    const values = {
      id: session.id,
      memberId: reference !== null && UUID.test(reference) ? reference.toLowerCase() : null,
      offerId: offerOfSession(config, session),
      paymentLink: session.payment_link ?? null,
      amountTotal: session.amount_total ?? null,
      currency: session.currency ?? null,
      status: session.status ?? 'open',
      paymentStatus: session.payment_status,
      customerEmail: session.customer_details?.email ?? session.customer_email ?? null,
      livemode: session.livemode,
      subscriptionId: typeof session.subscription === 'string' ? session.subscription : (session.subscription?.id ?? null),
      createdAt: now,
      updatedAt: now,
    };
    const t = checkoutSessions;
    await tx
      .insert(t)
      .values(values)
      .onConflictDoUpdate({
        target: t.id,
        set: {
          memberId: sql`coalesce(${t.memberId}, excluded.member_id)`,
          offerId: sql`coalesce(${t.offerId}, excluded.offer_id)`,
          paymentLink: sql`coalesce(${t.paymentLink}, excluded.payment_link)`,
          amountTotal: sql`coalesce(${t.amountTotal}, excluded.amount_total)`,
          currency: sql`coalesce(${t.currency}, excluded.currency)`,
          customerEmail: sql`coalesce(${t.customerEmail}, excluded.customer_email)`,
          subscriptionId: sql`coalesce(${t.subscriptionId}, excluded.subscription_id)`,
          status: sql`case when ${t.status} = 'complete' then ${t.status} else excluded.status end`,
          paymentStatus: sql`case when ${t.paymentStatus} in ('paid', 'no_payment_required') then ${t.paymentStatus} else excluded.payment_status end`,
          updatedAt: now,
        },
      });
    // The payment belongs to the member's current contract (decision 175); one taken for a stopped
    // contract is refunded at once and never invoiced.
    if (values.memberId && (await outsideStoppedContract(tx, config, { sessionId: session.id, memberId: values.memberId, now }))) {
      await settleExpectedInstalments(tx, values.memberId);
      return 'recorded';
    }
    // A payment recorded now gets its invoice and its mail, in this transaction (decision 110).
    await invoiceRecordedPayment(tx, config, session.id, now);
    // The lines the member's schedule still expects, in the same transaction (decision 213).
    if (values.memberId) await settleExpectedInstalments(tx, values.memberId);
    return 'recorded';
  });
}

/**
 * Names the session's contract (the member's current one) and, when that contract has stopped
 * (renunciation, withdrawal, accepted termination, term) and the session is paid, never invoiced
 * and confirmed no step, records an automatic refund and its mail (once) instead of an invoice:
 * true then.
 */
async function outsideStoppedContract(
  tx: Transaction,
  config: Config,
  input: { sessionId: string; memberId: string; now: Date },
): Promise<boolean> {
  const [member] = await tx.select().from(members).where(eq(members.id, input.memberId)).limit(1);
  if (member?.role !== 'member') return false;
  // A member without a readable record has no contract to name (older rows, tests of numbering).
  const parsed = v.safeParse(onboardingRecordSchema, member.onboarding);
  if (!parsed.success) return false;
  const record = parsed.output;
  const [row] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, input.sessionId)).limit(1);
  if (!row) return false;
  let contractId = row.contractId;
  const signed = record.subscriptionDate ? instantMs(record.subscriptionDate) : null;
  if (contractId === null && signed !== null && signed <= input.now.getTime()) {
    contractId = await ensureContract(tx, member.id, record, input.now);
    await tx.update(checkoutSessions).set({ contractId }).where(eq(checkoutSessions.id, row.id));
  }
  const stoppedAt = contractStoppedAt(record) ?? (termOver(record, input.now.getTime()) ? termEndsAtMs(record) : null);
  const paid = row.status === 'complete' && row.paymentStatus === 'paid' && (row.amountTotal ?? 0) > 0;
  if (stoppedAt === null || !paid || row.consumedAt !== null) return false;
  // Invoiced already: it was recorded while the contract ran (a replay changes nothing).
  const [invoiced] = await tx.select({ n: invoices.number }).from(invoices).where(eq(invoices.checkoutSessionId, row.id)).limit(1);
  if (invoiced) return false;
  log.warn('stripe : paiement reçu pour un contrat arrêté, remboursé d’office, sans facture', { memberId: member.id, sessionId: row.id });
  await refundOutsideCharge(tx, {
    memberId: member.id,
    contractId,
    chargeId: row.id,
    amountCents: row.amountTotal ?? 0,
    currency: row.currency ?? 'eur',
    now: input.now,
    endedOn: new Date(stoppedAt),
    site: { siteUrl: config.publicSiteUrl, agency: config.agency },
    recipient: { to: member.email, firstName: firstNameOf(member.profile) },
  });
  return true;
}

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
    const [session] = await deps.database.db
      .select({ offerId: checkoutSessions.offerId })
      .from(checkoutSessions)
      .where(eq(checkoutSessions.subscriptionId, subscriptionId))
      .limit(1);
    // Outside the contract: the subscription is stopped at once; otherwise its end is (re)scheduled.
    if (result.outsideContract) await safelyStopping('annulation', subscriptionId, () => gateway.cancelNow(subscriptionId));
    else if (session?.offerId && isPlanId(session.offerId))
      await safelyStopping('fin programmée', subscriptionId, () =>
        gateway.scheduleEnd(subscriptionId, planById(session.offerId as PlanId).installments),
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
