import * as v from 'valibot';
import type { Config } from '#bff/config.ts';
import type { Db, Transaction } from '#bff/db/database.ts';
import { settleExpectedInstalments } from '#bff/payments/expected-instalments.ts';
import { contractStoppedAt } from '#bff/payments/instalment-schedules.ts';
import { issueInvoice } from '#bff/invoices/invoices.ts';
import { log } from '#bff/logger.ts';
import { firstNameOf } from '#bff/mail/agency-mail-triggers.ts';
import { instalmentFailedMail } from '#bff/mail/instalment-mails.ts';
import type { Executor } from '#bff/mail/outbox.ts';
import { enqueueMailOnce } from '#bff/mail/outbox.ts';
import { recordOf } from '#bff/members/members.ts';
import { offerLabel } from '#bff/contract/offers.ts';
import { ensureContract, refundOutsideCharge } from '#bff/payments/contract-ledger.ts';
import { firstMemberSessionOfSubscription } from '#bff/payments/store/checkout-sessions.ts';
import { insertInstalment, instalmentCount, instalmentOfInvoice, updateInstalment } from '#bff/payments/store/instalments.ts';
import { memberRow } from '#bff/payments/store/members.ts';
import { recordWebhookEventOnce } from '#bff/payments/store/webhook-events.ts';
import { instantMs } from '#machines/onboarding/instant.ts';
import { instalmentOutsideContract } from '#machines/onboarding/instalments.ts';
import { termEndsAtMs } from '#machines/onboarding/periods.ts';
import { isPlanId, planById } from '#machines/onboarding/plans.ts';

/**
 * Monthly instalments (decision 120). Instalment 1 is the plan's checkout session (paid at the
 * payment step with the file fee); its session names the Stripe subscription it opened. Each
 * later instalment arrives as a signed Stripe `invoice.paid` or `invoice.payment_failed` event
 * for that subscription, through the one webhook (bff/api/stripe-webhook.ts): recorded once
 * per event id, one row per Stripe invoice; a paid one gets a numbered invoice and the
 * payment-received mail, a failed one the failure mail; one arriving outside the contract (after
 * the N-th, a withdrawal, a renunciation or the term's end) is recorded and flagged, never invoiced.
 */

export const INSTALMENT_EVENTS = ['invoice.paid', 'invoice.payment_failed'] as const;
export type InstalmentEventType = (typeof INSTALMENT_EVENTS)[number];

const optionalText = v.nullish(v.pipe(v.string(), v.maxLength(500)));
const SUBSCRIPTION_ID = /^sub_[A-Za-z0-9_]{1,250}$/;
const subscriptionRef = v.union([
  v.pipe(v.string(), v.regex(SUBSCRIPTION_ID)),
  v.object({ id: v.pipe(v.string(), v.regex(SUBSCRIPTION_ID)) }),
]);
const cents = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(2_147_483_647));

/** The fields of a Stripe Invoice the product reads (stripe-node `Invoice`, API 2025+: `parent.subscription_details`). */
export const StripeInvoiceSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^in_[A-Za-z0-9_]{1,250}$/)),
  object: v.literal('invoice'),
  billing_reason: optionalText,
  amount_paid: cents,
  amount_due: v.nullish(cents),
  currency: optionalText,
  livemode: v.boolean(),
  customer_email: optionalText,
  parent: v.nullish(
    v.object({
      type: optionalText,
      subscription_details: v.nullish(v.object({ subscription: subscriptionRef })),
    }),
  ),
  /** Older API versions put the subscription at the top level. */
  subscription: v.nullish(subscriptionRef),
});
export type StripeInvoiceObject = v.InferOutput<typeof StripeInvoiceSchema>;

export function subscriptionOfInvoice(invoice: StripeInvoiceObject): string | null {
  const ref = invoice.parent?.subscription_details?.subscription ?? invoice.subscription ?? null;
  if (ref === null) return null;
  return typeof ref === 'string' ? ref : ref.id;
}

type InstalmentOutcome = 'recorded' | 'duplicate' | 'ignored';

export interface InstalmentRecorded {
  outcome: InstalmentOutcome;
  memberId?: string;
  subscriptionId?: string;
  number?: number;
  outsideContract?: boolean;
  invoiceNumber?: string | null;
}

/** The subscription's plan session: the member, the plan, and when instalment 1 was paid. */
async function sessionOfSubscription(executor: Executor, subscriptionId: string) {
  const session = await firstMemberSessionOfSubscription(executor, subscriptionId);
  return session ?? null;
}

/** Records one verified instalment event, in one transaction with its invoice and its mail. */
export async function recordInstalmentEvent(
  db: Db,
  config: Config,
  event: { id: string; type: InstalmentEventType; livemode: boolean },
  invoice: StripeInvoiceObject,
  now: Date,
): Promise<InstalmentRecorded> {
  return db.transaction(async (tx) => {
    const recorded = await recordIn(tx, config, event, invoice, now);
    // The lines the member's schedule still expects, in the same transaction (decision 213).
    if (recorded.memberId) await settleExpectedInstalments(tx, recorded.memberId);
    return recorded;
  });
}

async function recordIn(
  tx: Transaction,
  config: Config,
  event: { id: string; type: InstalmentEventType; livemode: boolean },
  invoice: StripeInvoiceObject,
  now: Date,
): Promise<InstalmentRecorded> {
  if (!(await recordWebhookEventOnce(tx, { provider: 'stripe', id: event.id, type: event.type, payload: event }, now)))
    return { outcome: 'duplicate' };
  if (invoice.livemode !== (config.stripeMode === 'live')) return { outcome: 'ignored' };
  const subscriptionId = subscriptionOfInvoice(invoice);
  // Instalment 1 is the checkout session (with its own invoice): its subscription invoice adds nothing.
  if (subscriptionId === null || invoice.billing_reason === 'subscription_create') return { outcome: 'ignored' };
  const session = await sessionOfSubscription(tx, subscriptionId);
  if (!session?.memberId || !isPlanId(session.offerId) || planById(session.offerId).type !== 'monthly') {
    log.warn('stripe : mensualité d’un abonnement inconnu, non enregistrée', { eventId: event.id, subscriptionId });
    return { outcome: 'ignored' };
  }
  const plan = planById(session.offerId);
  const member = await memberRow(tx, session.memberId);
  if (member?.role !== 'member') return { outcome: 'ignored' };
  const record = recordOf(member);
  const paid = event.type === 'invoice.paid';
  const amountCents = paid ? invoice.amount_paid : (invoice.amount_due ?? plan.priceCents);

  const existing = await instalmentOfInvoice(tx, invoice.id);
  if (existing?.status === 'paid')
    return { outcome: 'recorded', subscriptionId, number: existing.number, invoiceNumber: existing.invoiceNumber };
  // The instalment belongs to the contract of the checkout that opened its subscription (decision 175).
  const current = await ensureContract(tx, member.id, record, now);
  const contractId = session.contractId ?? current;
  let number: number;
  let outside: boolean;
  if (existing) {
    number = existing.number;
    outside = existing.outsideContract;
  } else {
    const n = await instalmentCount(tx, subscriptionId);
    number = Number(n) + 2;
    // A subscription of an earlier contract (before a renewal's signature) is outside this one.
    const signedAt = record.subscriptionDate ? instantMs(record.subscriptionDate) : null;
    const olderContract =
      signedAt === null ||
      current === null ||
      (session.contractId !== null ? session.contractId !== current : session.createdAt.getTime() < signedAt);
    outside =
      olderContract ||
      record.selectedPlanId !== plan.id ||
      instalmentOutsideContract({
        number,
        of: plan.installments,
        at: now.getTime(),
        stoppedAt: contractStoppedAt(record),
        termEndsAt: termEndsAtMs(record),
      });
  }
  const values = {
    status: paid ? ('paid' as const) : ('failed' as const),
    amountCents,
    paidAt: paid ? now : null,
    ...(paid ? {} : { failedAt: now }),
    updatedAt: now,
  };
  let rowId: number;
  if (existing) {
    await updateInstalment(tx, existing.id, { ...values, failures: existing.failures + (paid ? 0 : 1) });
    rowId = existing.id;
  } else {
    const row = await insertInstalment(tx, {
      memberId: member.id,
      contractId,
      subscriptionId,
      providerInvoiceId: invoice.id,
      offerId: plan.id,
      number,
      currency: invoice.currency ?? 'eur',
      failures: paid ? 0 : 1,
      outsideContract: outside,
      livemode: invoice.livemode,
      createdAt: now,
      failedAt: null,
      ...values,
    });
    rowId = row?.id ?? 0;
  }
  const site = { siteUrl: config.publicSiteUrl, agency: config.agency };
  const recipient = { to: member.email, firstName: firstNameOf(member.profile) };
  if (outside) {
    log.warn('stripe : mensualité reçue hors contrat, enregistrée, remboursée d’office si payée, signalée à l’équipe', {
      eventId: event.id,
      memberId: member.id,
      subscriptionId,
      number,
      type: event.type,
    });
    // Never invoiced: refunded at once, and the member told once (decision 175).
    if (paid) {
      const stopped = contractStoppedAt(record) ?? termEndsAtMs(record);
      await refundOutsideCharge(tx, {
        memberId: member.id,
        contractId,
        chargeId: invoice.id,
        amountCents,
        currency: invoice.currency ?? 'eur',
        now,
        endedOn: stopped === null ? null : new Date(stopped),
        site,
        recipient,
      });
    }
    return { outcome: 'recorded', memberId: member.id, subscriptionId, number, outsideContract: true, invoiceNumber: null };
  }
  if (!paid) {
    await enqueueMailOnce(
      tx,
      instalmentFailedMail(site, recipient, { number, of: plan.installments, amountCents, planTitle: plan.title, failedAt: now }),
      `agency-instalment-failed:${member.id}:${event.id}`,
    );
    return { outcome: 'recorded', memberId: member.id, subscriptionId, number, outsideContract: false, invoiceNumber: null };
  }
  // The numbered invoice of a paid instalment; its payment reference is the Stripe invoice id (`in_…`).
  const invoiceNumber = await issueInvoice(tx, config, {
    member,
    reference: invoice.id,
    offerId: plan.id,
    lines: [{ label: `${offerLabel(plan.id)} — mensualité ${number} sur ${plan.installments}`, amountCents }],
    subtotalCents: amountCents,
    discountCents: 0,
    totalCents: amountCents,
    currency: invoice.currency ?? 'eur',
    livemode: invoice.livemode,
    contractId,
    now,
  });
  await updateInstalment(tx, rowId, { invoiceNumber });
  return { outcome: 'recorded', memberId: member.id, subscriptionId, number, outsideContract: false, invoiceNumber };
}
