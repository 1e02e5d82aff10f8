import { randomBytes } from 'node:crypto';
import { type GatewayConfig, refuseStandInGateway } from '#bff/payments/stripe-settings.ts';
import { settleExpectedInstalments } from '#bff/payments/expected-instalments.ts';
import type { Db, Transaction } from '#bff/db/database.ts';
import { log } from '#bff/logger.ts';
import { type ContractCharge, contractCharges, ensureContract } from '#bff/payments/contract-ledger.ts';
import { insertRefund, pendingRefunds, recordRefundAttemptFailed, recordRefundDone, refundRowsOf } from '#bff/payments/store/refunds.ts';
import { lazyStripeClient } from '#bff/payments/stripe-library.ts';
import { DAY_MS, instantMs } from '#machines/onboarding/instant.ts';
import {
  REFUND_DEADLINE_DAYS,
  termEndsAtMs,
  terminationRefundCents,
  terminationRefundDueByMs,
  withdrawalRefundCents,
} from '#machines/onboarding/periods.ts';
import type { AgencyIdentity } from '#machines/public-site/agency-identity.ts';
import { issueCreditNote } from '#bff/invoices/credit-notes.ts';
import type { AgencyMailSite } from '#bff/mail/agency-mails.ts';
import { expectedAmountCents, planById } from '#machines/onboarding/plans.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';

/**
 * Refunds (decision 118). One code path: a refund is first recorded (`refunds`, status
 * `pending`) in the transaction of its cause, then carried out by a gateway — Stripe's refund API
 * through the real `stripe` library when `STRIPE_SECRET_KEY` is set, the local stand-in
 * otherwise — with the row's id as idempotency key, so a retry never refunds twice.
 */

interface RefundRequest {
  checkoutSessionId: string;
  amountCents: number;
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export interface RefundGateway {
  provider: 'stripe' | 'stand-in';
  refund(request: RefundRequest): Promise<{ id: string; status: string }>;
}

/** Stripe: the charge's PaymentIntent (a checkout session's, or an instalment invoice's), then `POST /v1/refunds` with an idempotency key. */
export function stripeRefundGateway(secretKey: string, options: { fetch?: typeof fetch } = {}): RefundGateway {
  const stripe = lazyStripeClient(secretKey, options);
  return {
    provider: 'stripe',
    async refund(request) {
      const api = await stripe();
      let intent: string | null;
      if (request.checkoutSessionId.startsWith('in_')) {
        // An instalment: its Stripe invoice's payment (API 2025+: `invoice_payments`).
        const payments = await api.invoicePayments.list({ invoice: request.checkoutSessionId, status: 'paid', limit: 1 });
        const paid = payments.data[0]?.payment.payment_intent;
        intent = typeof paid === 'string' ? paid : (paid?.id ?? null);
      } else {
        const session = await api.checkout.sessions.retrieve(request.checkoutSessionId);
        intent = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
      }
      if (!intent) throw new Error('paiement sans PaymentIntent');
      const refund = await api.refunds.create(
        { payment_intent: intent, amount: request.amountCents, reason: 'requested_by_customer', metadata: request.metadata },
        { idempotencyKey: request.idempotencyKey },
      );
      return { id: refund.id, status: refund.status ?? 'pending' };
    },
  };
}

/** The local stand-in: the refund is recorded as made, with a `re_local_` id (nothing leaves the machine). */
export const standInRefundGateway: RefundGateway = {
  provider: 'stand-in',
  refund: async () => ({ id: `re_local_${randomBytes(12).toString('hex')}`, status: 'succeeded' }),
};

/** Stripe with `STRIPE_SECRET_KEY`; the stand-in otherwise, never in production with live payments. */
export function refundGateway(config: GatewayConfig): RefundGateway {
  if (config.stripeSecretKey) return stripeRefundGateway(config.stripeSecretKey);
  refuseStandInGateway(config, 'Remboursements');
  return standInRefundGateway;
}

export interface WithdrawalRefund {
  paidCents: number;
  refundCents: number;
  keptCents: number;
  dueBy: Date;
  /** The credit notes issued for the refund rows (decision 119). */
  creditNotes: string[];
}

/** Where a refund's credit note takes the agency's identity, and whether it is mailed (decision 119). */
export interface CreditNoteSettings {
  agency: AgencyIdentity;
  site: AgencyMailSite | undefined;
}

/** The price of the whole contract: the file fee as charged and the plan's total. */
function contractPriceCentsOf(record: OnboardingRecord): number {
  return expectedAmountCents('file_fee', record) + (record.selectedPlanId ? planById(record.selectedPlanId).totalCents : 0);
}

/**
 * Gives back `refundCents` from the contract's own charges (decision 175): the latest payments
 * first, the file fee last (what is kept is kept on it), each never beyond what it received less
 * what it already gave back. One pending row per charge and reason, each with its credit note
 * (decision 119). The database refuses more than a charge or its contract received.
 */
async function recordRefundRows(
  tx: Transaction,
  input: {
    memberId: string;
    contractId: number;
    reason: 'withdrawal' | 'termination';
    charges: readonly ContractCharge[];
    refundCents: number;
    now: Date;
    dueBy: Date;
    creditNote: CreditNoteSettings;
  },
): Promise<string[]> {
  const numbers: string[] = [];
  let left = input.refundCents;
  for (const charge of input.charges) {
    const amount = Math.min(left, charge.receivedCents - charge.refundedCents);
    if (amount <= 0) continue;
    left -= amount;
    const inserted = await insertRefund(tx, {
      memberId: input.memberId,
      contractId: input.contractId,
      checkoutSessionId: charge.id,
      reason: input.reason,
      amountCents: amount,
      currency: charge.currency,
      paidCents: charge.receivedCents,
      keptCents: charge.receivedCents - charge.refundedCents - amount,
      requestedAt: input.now,
      dueBy: input.dueBy,
      status: 'pending',
      attempts: 0,
    });
    for (const row of inserted) {
      const number = await issueCreditNote(tx, { refundId: row.id, ...input.creditNote, now: input.now });
      if (number) numbers.push(number);
    }
  }
  return numbers;
}

/** What the contract received and still holds: the sum of its charges less their refunds. */
function heldCents(charges: readonly ContractCharge[]): number {
  return charges.reduce((total, c) => total + c.receivedCents - c.refundedCents, 0);
}

/**
 * Inside the withdrawal's transaction: what the member paid (the checkout sessions that confirmed
 * a step), what is refunded (all of it, or less the days elapsed when an early start was asked),
 * and one pending refund row per session with its credit note. Recorded once: the rows are unique
 * per session and reason.
 */
export async function recordWithdrawalRefunds(
  tx: Transaction,
  input: { memberId: string; record: OnboardingRecord; now: Date; creditNote: CreditNoteSettings },
): Promise<WithdrawalRefund> {
  const { record, now } = input;
  const dueBy = new Date(now.getTime() + REFUND_DEADLINE_DAYS * DAY_MS);
  const contractId = await ensureContract(tx, input.memberId, record, now);
  const charges = contractId === null ? [] : await contractCharges(tx, contractId);
  const paidCents = heldCents(charges);
  const signedAt = record.subscriptionDate ? instantMs(record.subscriptionDate) : now.getTime();
  const endsAt = termEndsAtMs(record) ?? signedAt + DAY_MS;
  const { refundCents, keptCents } = withdrawalRefundCents({
    paidCents,
    contractPriceCents: contractPriceCentsOf(record),
    earlyStart: record.renouncedWithdrawalRight === true,
    signedAtMs: signedAt,
    endsAtMs: endsAt,
    now: now.getTime(),
  });
  if (contractId === null) return { paidCents, refundCents: 0, keptCents: paidCents, dueBy, creditNotes: [] };
  const creditNotes = await recordRefundRows(tx, {
    memberId: input.memberId,
    contractId,
    reason: 'withdrawal',
    charges,
    refundCents,
    now,
    dueBy,
    creditNote: input.creditNote,
  });
  return { paidCents, refundCents, keptCents, dueBy, creditNotes };
}

/**
 * Inside the accepted termination's transaction (R224-2, decision 119): the price of the contract
 * reduced pro rata of the whole days elapsed from signature to the request; what was paid beyond
 * it is refunded, due two months after the request; one refund row per session with its credit note.
 */
export async function recordTerminationRefunds(
  tx: Transaction,
  input: { memberId: string; record: OnboardingRecord; requestedAt: Date; now: Date; creditNote: CreditNoteSettings },
): Promise<WithdrawalRefund> {
  const { record, now } = input;
  const requestedAtMs = input.requestedAt.getTime();
  const dueBy = new Date(terminationRefundDueByMs(requestedAtMs));
  // Every payment taken under the contract counts, those taken after the request included.
  const contractId = await ensureContract(tx, input.memberId, record, now);
  const charges = contractId === null ? [] : await contractCharges(tx, contractId);
  const paidCents = heldCents(charges);
  const signedAt = record.subscriptionDate ? instantMs(record.subscriptionDate) : requestedAtMs;
  const endsAt = termEndsAtMs(record) ?? signedAt + DAY_MS;
  const { refundCents, keptCents } = terminationRefundCents({
    paidCents,
    contractPriceCents: contractPriceCentsOf(record),
    signedAtMs: signedAt,
    endsAtMs: endsAt,
    requestedAtMs,
  });
  if (contractId === null) return { paidCents, refundCents: 0, keptCents: paidCents, dueBy, creditNotes: [] };
  const creditNotes = await recordRefundRows(tx, {
    memberId: input.memberId,
    contractId,
    reason: 'termination',
    charges,
    refundCents,
    now,
    dueBy,
    creditNote: input.creditNote,
  });
  return { paidCents, refundCents, keptCents, dueBy, creditNotes };
}

/** After the transaction: carry out the member's (or every) pending refund. Failures stay pending for the next pass. */
export async function executePendingRefunds(
  db: Db,
  gateway: RefundGateway,
  options: { now: Date; memberId?: string },
): Promise<{ succeeded: number; failed: number }> {
  const pending = await pendingRefunds(db, options.memberId);
  let succeeded = 0;
  let failed = 0;
  for (const row of pending) {
    try {
      const result = await gateway.refund({
        checkoutSessionId: row.checkoutSessionId,
        amountCents: row.amountCents,
        idempotencyKey: `refund-${row.id}`,
        metadata: { member_id: row.memberId, reason: row.reason, refund_row: String(row.id) },
      });
      await db.transaction(async (tx) => {
        await recordRefundDone(tx, row.id, {
          status: result.status === 'failed' || result.status === 'canceled' ? 'failed' : 'succeeded',
          provider: gateway.provider,
          providerRefundId: result.id,
          completedAt: options.now,
        });
        // A failed refund gives nothing back: the schedule's lines follow, in the same transaction (decision 213).
        await settleExpectedInstalments(tx, row.memberId);
      });
      succeeded += 1;
    } catch (error) {
      failed += 1;
      const message = error instanceof Error ? error.message.slice(0, 500) : 'erreur inconnue';
      log.warn('remboursement non effectué, nouvel essai plus tard', { refundId: row.id, memberId: row.memberId, err: message });
      await recordRefundAttemptFailed(db, row.id, message);
    }
  }
  return { succeeded, failed };
}

/** A member's refunds, for the staff's member page and the member's account. */
export async function refundsOf(db: Db | Transaction, memberIds: string | string[]) {
  const ids = Array.isArray(memberIds) ? memberIds : [memberIds];
  if (ids.length === 0) return [];
  return refundRowsOf(db, ids);
}
