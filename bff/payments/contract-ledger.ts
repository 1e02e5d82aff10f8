import type { ContractStopReason } from '#bff/db/contracts-schema.ts';
import type { Db } from '#bff/db/database.ts';
import { log } from '#bff/logger.ts';
import type { AgencyMailSite, Recipient } from '#bff/mail/agency-mails.ts';
import { chargeRefundedMail } from '#bff/mail/instalment-mails.ts';
import { type Executor, enqueueMailOnce } from '#bff/mail/outbox.ts';
import { chargedSessionsOfContract } from '#bff/payments/store/checkout-sessions.ts';
import {
  contractOfSignature,
  markSubscriptionsCancelled,
  stopContract,
  stopContractsAtTerm,
  subscriptionsToCancel,
  upsertContract,
} from '#bff/payments/store/contracts.ts';
import { paidInstalmentsOfContract } from '#bff/payments/store/instalments.ts';
import { insertRefundOnce, outsideRefundOfCharge, refundedByCharge } from '#bff/payments/store/refunds.ts';
import { instantMs } from '#machines/onboarding/instant.ts';
import { termEndsAtMs } from '#machines/onboarding/periods.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';

/**
 * One ledger per contract (decision 175). A contract is one signature of a member (the record's
 * `subscriptionDate`; a renewal signs a new one): its row in `contracts` is the key every payment,
 * instalment, refund, invoice and credit note names. Refunds are computed from the charges of
 * that contract only, less what each already gave back; the database checks refunded ≤ received
 * per charge and per contract (migration 0031's trigger). A stop (renunciation, withdrawal,
 * accepted termination, the term) is written on the contract, and its subscription is cancelled
 * at the provider then; a charge that still arrives is refunded at once, never invoiced.
 */

/** The contract of the record's signature (created on first use), or null before any signature. */
export async function ensureContract(
  executor: Executor,
  memberId: string,
  record: Pick<OnboardingRecord, 'subscriptionDate' | 'selectedPlanId'>,
  now: Date,
): Promise<number | null> {
  if (!record.subscriptionDate) return null;
  const signedMs = instantMs(record.subscriptionDate);
  if (!Number.isFinite(signedMs)) return null;
  const ends = termEndsAtMs(record);
  const row = await upsertContract(executor, {
    memberId,
    signedAt: new Date(signedMs),
    planId: record.selectedPlanId,
    endsAt: ends === null ? null : new Date(ends),
    createdAt: now,
  });
  return row?.id ?? null;
}

/** Writes the stop of the member's current contract (once: the first stop is the one that counts). */
export async function recordContractStop(
  executor: Executor,
  input: { memberId: string; record: OnboardingRecord; reason: ContractStopReason; at: Date },
): Promise<number | null> {
  const id = await ensureContract(executor, input.memberId, input.record, input.at);
  if (id === null) return null;
  await stopContract(executor, id, input.at, input.reason);
  return id;
}

/** One charge of a contract: a checkout session (`cs_…`) or a paid instalment (its Stripe invoice `in_…`). */
export interface ContractCharge {
  id: string;
  offerId: string | null;
  /** 0 the file fee, 1 the plan's checkout (instalment 1), n a later instalment. */
  rank: number;
  receivedCents: number;
  /** What refunds (not failed) already gave back from it. */
  refundedCents: number;
  currency: string;
}

/**
 * Every payment taken under contract `contractId` (the checkout sessions that confirmed a step and
 * the instalments paid within it), with what each already refunded; latest first, the file fee
 * last: a refund gives back the latest payments first, and what is kept is kept on the file fee.
 */
export async function contractCharges(executor: Executor, contractId: number): Promise<ContractCharge[]> {
  const sessions = await chargedSessionsOfContract(executor, contractId);
  const paid = await paidInstalmentsOfContract(executor, contractId);
  const given = await refundedByCharge(executor, contractId);
  const refunded = new Map(given.map((g) => [g.charge, g.cents]));
  const charges: ContractCharge[] = [
    ...sessions.map((s) => ({
      id: s.id,
      offerId: s.offerId,
      rank: s.offerId === 'file_fee' ? 0 : 1,
      receivedCents: s.amount ?? 0,
      refundedCents: refunded.get(s.id) ?? 0,
      currency: s.currency ?? 'eur',
    })),
    ...paid.map((p) => ({
      id: p.id,
      offerId: p.offerId,
      rank: p.number,
      receivedCents: p.amount,
      refundedCents: refunded.get(p.id) ?? 0,
      currency: p.currency,
    })),
  ];
  return charges.sort((a, b) => b.rank - a.rank);
}

/**
 * A paid charge that arrived for a stopped contract (after a renunciation, a withdrawal, an accepted
 * termination or the term): one pending refund of all of it (carried out right after the
 * transaction, as every refund) and one plain mail. Never invoiced, so no credit note.
 */
export async function refundOutsideCharge(
  executor: Executor,
  input: {
    memberId: string;
    contractId: number | null;
    chargeId: string;
    amountCents: number;
    currency: string;
    now: Date;
    endedOn: Date | null;
    site: AgencyMailSite;
    recipient: Recipient;
  },
): Promise<void> {
  if (input.amountCents <= 0) return;
  // Once per charge: the database would refuse a second refund of the same money anyway.
  const known = await outsideRefundOfCharge(executor, input.chargeId);
  if (known) return;
  const inserted = await insertRefundOnce(executor, {
    memberId: input.memberId,
    contractId: input.contractId,
    checkoutSessionId: input.chargeId,
    reason: 'outside_contract',
    amountCents: input.amountCents,
    currency: input.currency,
    paidCents: input.amountCents,
    keptCents: 0,
    requestedAt: input.now,
    dueBy: input.now,
    status: 'pending',
    attempts: 0,
  });
  if (inserted.length === 0) return;
  const mail = chargeRefundedMail(input.site, input.recipient, {
    amountCents: input.amountCents,
    takenAt: input.now,
    endedOn: input.endedOn,
  });
  await enqueueMailOnce(executor, mail, `${mail.kind}:${input.memberId}:${input.chargeId}`);
}

/** The subscription gateway as this module needs it (bff/payments/instalments.ts). */
interface Cancelling {
  cancelNow(subscriptionId: string): Promise<void>;
}

/**
 * Cancels, at the provider, the subscription of every contract that has stopped or reached its
 * term by `now` and is not cancelled yet (of one member, or of all), and records when. The term
 * reached is written as the contract's stop. A provider error is logged and retried at the next
 * pass (the refund job, the instalments stand-in, the next instalment event).
 */
export async function cancelStoppedSubscriptions(
  db: Db,
  gateway: Cancelling,
  options: { now: Date; memberId?: string },
): Promise<{ cancelled: number; failed: number }> {
  const { now } = options;
  await stopContractsAtTerm(db, now, options.memberId);
  const rows = await subscriptionsToCancel(db, now, options.memberId);
  const done = new Set<number>();
  const broken = new Set<number>();
  for (const row of rows) {
    const id = row.subscriptionId;
    if (!id) continue;
    try {
      await gateway.cancelNow(id);
      done.add(row.contractId);
    } catch (error) {
      broken.add(row.contractId);
      log.error('abonnement : annulation impossible, nouvel essai au prochain passage', {
        subscriptionId: id,
        err: error instanceof Error ? error.message.slice(0, 300) : 'erreur inconnue',
      });
    }
  }
  const cancelled = [...done].filter((id) => !broken.has(id));
  if (cancelled.length > 0) await markSubscriptionsCancelled(db, cancelled, now);
  return { cancelled: cancelled.length, failed: broken.size };
}

/** The row of the member's current contract (the record's signature), if any. */
export async function currentContractOf(executor: Executor, memberId: string, record: Pick<OnboardingRecord, 'subscriptionDate'>) {
  if (!record.subscriptionDate) return null;
  const signedMs = instantMs(record.subscriptionDate);
  if (!Number.isFinite(signedMs)) return null;
  const row = await contractOfSignature(executor, memberId, new Date(signedMs));
  return row ?? null;
}
