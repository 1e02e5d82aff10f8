import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, ne, or, sql, sum } from 'drizzle-orm';
import { type ContractStopReason, contracts } from '#bff/db/contracts-schema.ts';
import type { Db } from '#bff/db/database.ts';
import { instalments } from '#bff/db/instalments-schema.ts';
import { refunds } from '#bff/db/refunds-schema.ts';
import { checkoutSessions } from '#bff/db/schema.ts';
import { log } from '#bff/logger.ts';
import type { AgencyMailSite, Recipient } from '#bff/mail/agency-mails.ts';
import { chargeRefundedMail } from '#bff/mail/instalment-mails.ts';
import { type Executor, enqueueMailOnce } from '#bff/mail/outbox.ts';
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
  const [row] = await executor
    .insert(contracts)
    .values({
      memberId,
      signedAt: new Date(signedMs),
      planId: record.selectedPlanId,
      endsAt: ends === null ? null : new Date(ends),
      createdAt: now,
    })
    .onConflictDoUpdate({
      target: [contracts.memberId, contracts.signedAt],
      set: { planId: sql`coalesce(excluded.plan_id, ${contracts.planId})`, endsAt: sql`coalesce(excluded.ends_at, ${contracts.endsAt})` },
    })
    .returning({ id: contracts.id });
  return row?.id ?? null;
}

/** Writes the stop of the member's current contract (once: the first stop is the one that counts). */
export async function recordContractStop(
  executor: Executor,
  input: { memberId: string; record: OnboardingRecord; reason: ContractStopReason; at: Date },
): Promise<number | null> {
  const id = await ensureContract(executor, input.memberId, input.record, input.at);
  if (id === null) return null;
  await executor
    .update(contracts)
    .set({ stoppedAt: input.at, stopReason: input.reason })
    .where(and(eq(contracts.id, id), isNull(contracts.stoppedAt)));
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
  const sessions = await executor
    .select({
      id: checkoutSessions.id,
      offerId: checkoutSessions.offerId,
      amount: checkoutSessions.amountTotal,
      currency: checkoutSessions.currency,
    })
    .from(checkoutSessions)
    .where(
      and(
        eq(checkoutSessions.contractId, contractId),
        isNotNull(checkoutSessions.consumedAt),
        eq(checkoutSessions.paymentStatus, 'paid'),
        gt(checkoutSessions.amountTotal, 0),
      ),
    )
    .orderBy(asc(checkoutSessions.createdAt));
  const paid = await executor
    .select({
      id: instalments.providerInvoiceId,
      offerId: instalments.offerId,
      amount: instalments.amountCents,
      currency: instalments.currency,
      number: instalments.number,
    })
    .from(instalments)
    .where(and(eq(instalments.contractId, contractId), eq(instalments.status, 'paid'), eq(instalments.outsideContract, false)));
  const given = await executor
    .select({ charge: refunds.checkoutSessionId, cents: sum(refunds.amountCents).mapWith(Number) })
    .from(refunds)
    .where(and(eq(refunds.contractId, contractId), ne(refunds.status, 'failed')))
    .groupBy(refunds.checkoutSessionId);
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
  const [known] = await executor
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.checkoutSessionId, input.chargeId), eq(refunds.reason, 'outside_contract')))
    .limit(1);
  if (known) return;
  const inserted = await executor
    .insert(refunds)
    .values({
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
    })
    .onConflictDoNothing()
    .returning({ id: refunds.id });
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
  const mine = options.memberId ? eq(contracts.memberId, options.memberId) : undefined;
  await db
    .update(contracts)
    .set({ stoppedAt: sql`${contracts.endsAt}`, stopReason: 'term' })
    .where(and(isNull(contracts.stoppedAt), lte(contracts.endsAt, now), mine));
  const rows = await db
    .selectDistinct({ contractId: contracts.id, subscriptionId: checkoutSessions.subscriptionId })
    .from(contracts)
    .innerJoin(checkoutSessions, and(eq(checkoutSessions.contractId, contracts.id), isNotNull(checkoutSessions.subscriptionId)))
    .where(and(isNull(contracts.subscriptionCancelledAt), or(lte(contracts.stoppedAt, now), lte(contracts.endsAt, now)), mine));
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
  if (cancelled.length > 0)
    await db
      .update(contracts)
      .set({ subscriptionCancelledAt: now })
      .where(and(inArray(contracts.id, cancelled), isNull(contracts.subscriptionCancelledAt)));
  return { cancelled: cancelled.length, failed: broken.size };
}

/** The row of the member's current contract (the record's signature), if any. */
export async function currentContractOf(executor: Executor, memberId: string, record: Pick<OnboardingRecord, 'subscriptionDate'>) {
  if (!record.subscriptionDate) return null;
  const signedMs = instantMs(record.subscriptionDate);
  if (!Number.isFinite(signedMs)) return null;
  const [row] = await executor
    .select()
    .from(contracts)
    .where(and(eq(contracts.memberId, memberId), eq(contracts.signedAt, new Date(signedMs))))
    .limit(1);
  return row ?? null;
}
