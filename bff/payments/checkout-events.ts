import * as v from 'valibot';
import type { Config } from '#bff/config.ts';
import type { Db, Transaction } from '#bff/db/database.ts';
import { invoiceRecordedPayment } from '#bff/invoices/invoices.ts';
import { checkoutSessionById, invoiceNumberOfReference } from '#bff/invoices/store/invoices.ts';
import { log } from '#bff/logger.ts';
import { firstNameOf } from '#bff/mail/agency-mail-triggers.ts';
import { ensureContract, refundOutsideCharge } from '#bff/payments/contract-ledger.ts';
import { settleExpectedInstalments } from '#bff/payments/expected-instalments.ts';
import { contractStoppedAt } from '#bff/payments/instalment-schedules.ts';
import { offerSessionOfSubscription, setSessionContract, upsertCheckoutSession } from '#bff/payments/store/checkout-sessions.ts';
import { memberRow } from '#bff/payments/store/members.ts';
import { recordWebhookEventOnce } from '#bff/payments/store/webhook-events.ts';
import { offerOfSession } from '#bff/payments/stripe-settings.ts';
import { instantMs } from '#machines/onboarding/instant.ts';
import { termEndsAtMs, termOver } from '#machines/onboarding/periods.ts';
import { onboardingRecordSchema } from '#machines/onboarding/record.ts';

/**
 * A paid checkout session as the Stripe webhook (`bff/api/stripe-webhook.ts`) hands it in: the
 * event de-duplicated on its id and the session recorded, merged monotonically, with its invoice,
 * its contract, the automatic refund of a payment for a stopped contract and the lines the schedule
 * still expects, in one transaction (decisions 110, 175, 213; the queries left the route, decision 221).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const optionalText = v.nullish(v.pipe(v.string(), v.maxLength(500)));

/** The fields of a Checkout Session the product reads (stripe-node `Checkout.Session`). */
export const CheckoutSessionSchema = v.object({
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
    await upsertCheckoutSession(tx, values, now);
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
  const member = await memberRow(tx, input.memberId);
  if (member?.role !== 'member') return false;
  // A member without a readable record has no contract to name (older rows, tests of numbering).
  const parsed = v.safeParse(onboardingRecordSchema, member.onboarding);
  if (!parsed.success) return false;
  const record = parsed.output;
  const row = await checkoutSessionById(tx, input.sessionId);
  if (!row) return false;
  let contractId = row.contractId;
  const signed = record.subscriptionDate ? instantMs(record.subscriptionDate) : null;
  if (contractId === null && signed !== null && signed <= input.now.getTime()) {
    contractId = await ensureContract(tx, member.id, record, input.now);
    await setSessionContract(tx, row.id, contractId);
  }
  const stoppedAt = contractStoppedAt(record) ?? (termOver(record, input.now.getTime()) ? termEndsAtMs(record) : null);
  const paid = row.status === 'complete' && row.paymentStatus === 'paid' && (row.amountTotal ?? 0) > 0;
  if (stoppedAt === null || !paid || row.consumedAt !== null) return false;
  // Invoiced already: it was recorded while the contract ran (a replay changes nothing).
  const invoiced = await invoiceNumberOfReference(tx, row.id);
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

/** The offer of the checkout session that opened a subscription (a monthly plan's), or null. */
export async function offerOfSubscription(db: Db, subscriptionId: string): Promise<string | null> {
  const session = await offerSessionOfSubscription(db, subscriptionId);
  return session?.offerId ?? null;
}
