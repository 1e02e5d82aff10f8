import { and, asc, count, desc, eq, inArray, isNotNull, ne, sum } from 'drizzle-orm';
import * as v from 'valibot';
import type { Config } from '#bff/config.ts';
import { type GatewayConfig, refuseStandInGateway } from '#bff/payments/stripe-settings.ts';
import type { Db } from '#bff/db/database.ts';
import { instalments } from '#bff/db/instalments-schema.ts';
import { refunds } from '#bff/db/refunds-schema.ts';
import { checkoutSessions, members } from '#bff/db/schema.ts';
import { recordWebhookEventOnce } from '#bff/db/webhook-events.ts';
import { issueInvoice } from '#bff/invoices/invoices.ts';
import { log } from '#bff/logger.ts';
import { firstNameOf } from '#bff/mail/agency-mail-triggers.ts';
import { instalmentFailedMail } from '#bff/mail/instalment-mails.ts';
import type { Executor } from '#bff/mail/outbox.ts';
import { enqueueMailOnce } from '#bff/mail/outbox.ts';
import { recordOf } from '#bff/members/members.ts';
import { offerLabel } from '#bff/payments/offers.ts';
import { currentContractOf, ensureContract, refundOutsideCharge } from '#bff/payments/contract-ledger.ts';
import { lazyStripeClient } from '#bff/payments/stripe-library.ts';
import { instantMs } from '#machines/onboarding/instant.ts';
import { instalmentOutsideContract, instalmentSchedule, type Schedule } from '#machines/onboarding/instalments.ts';
import { termEndsAtMs } from '#machines/onboarding/periods.ts';
import { isPlanId, planById } from '#machines/onboarding/plans.ts';
import { type OnboardingRecord, onboardingRecordSchema } from '#machines/onboarding/record.ts';
import { contracts } from '#bff/db/contracts-schema.ts';

/**
 * Monthly instalments (decision 120). Instalment 1 is the plan's checkout session (paid at the
 * payment step with the file fee); its session names the Stripe subscription it opened. Each
 * later instalment arrives as a signed Stripe `invoice.paid` or `invoice.payment_failed` event
 * for that subscription, through the one webhook (bff/payments/stripe-webhook.ts): recorded once
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

/** When the contract stopped early (renunciation, withdrawal, accepted termination), if it did. */
export function contractStoppedAt(record: OnboardingRecord): number | null {
  const stops = [record.contractWithdrawnAt, record.contractRenouncedAt, record.terminatedAt]
    .filter((x): x is string => typeof x === 'string')
    .map(instantMs)
    .filter(Number.isFinite);
  return stops.length > 0 ? Math.min(...stops) : null;
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
  const [session] = await executor
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.subscriptionId, subscriptionId), isNotNull(checkoutSessions.memberId)))
    .orderBy(asc(checkoutSessions.createdAt))
    .limit(1);
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
    const [member] = await tx.select().from(members).where(eq(members.id, session.memberId)).limit(1);
    if (member?.role !== 'member') return { outcome: 'ignored' };
    const record = recordOf(member);
    const paid = event.type === 'invoice.paid';
    const amountCents = paid ? invoice.amount_paid : (invoice.amount_due ?? plan.priceCents);

    const [existing] = await tx.select().from(instalments).where(eq(instalments.providerInvoiceId, invoice.id)).limit(1);
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
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(instalments).where(eq(instalments.subscriptionId, subscriptionId));
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
      await tx
        .update(instalments)
        .set({ ...values, failures: existing.failures + (paid ? 0 : 1) })
        .where(eq(instalments.id, existing.id));
      rowId = existing.id;
    } else {
      const [row] = await tx
        .insert(instalments)
        .values({
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
        })
        .returning({ id: instalments.id });
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
    await tx.update(instalments).set({ invoiceNumber }).where(eq(instalments.id, rowId));
    return { outcome: 'recorded', memberId: member.id, subscriptionId, number, outsideContract: false, invoiceNumber };
  });
}

// ---------------------------------------------------------------------------
// Reading: the member's schedule

export interface MemberInstalments {
  subscriptionId: string;
  schedule: Schedule;
  /** Events outside the contract (flagged to staff). */
  flagged: { number: number; status: 'paid' | 'failed'; amountCents: number; at: Date }[];
}

type InstalmentRow = typeof instalments.$inferSelect;

/** The schedule from what the reads found (`memberInstalments`, `agencySchedules`): the same arithmetic for one member or many. */
function scheduleOf(
  record: OnboardingRecord,
  contract: { stoppedAt: Date | null },
  session: { id: string; subscriptionId: string; createdAt: Date },
  rows: readonly InstalmentRow[],
  refunded: ReadonlyMap<string, number>,
  now: Date,
): MemberInstalments | null {
  if (!record.selectedPlanId) return null;
  const stops = [contractStoppedAt(record), contract.stoppedAt?.getTime() ?? null].filter((x): x is number => x !== null);
  const schedule = instalmentSchedule({
    planId: record.selectedPlanId,
    // Instalment 1 was paid when its checkout session was first recorded.
    firstPaidAt: session.createdAt.getTime(),
    firstRefundedCents: refunded.get(session.id) ?? 0,
    recorded: rows.map((r) => ({
      number: r.number,
      status: r.status,
      at: (r.status === 'paid' ? r.paidAt : r.failedAt)?.getTime() ?? r.updatedAt.getTime(),
      amountCents: r.amountCents,
      refundedCents: refunded.get(r.providerInvoiceId) ?? 0,
      outside: r.outsideContract,
    })),
    stoppedAt: stops.length > 0 ? Math.min(...stops) : null,
    termEndsAt: termEndsAtMs(record),
    now: now.getTime(),
  });
  if (!schedule) return null;
  return {
    subscriptionId: session.subscriptionId,
    schedule,
    flagged: rows
      .filter((r) => r.outsideContract)
      .map((r) => ({ number: r.number, status: r.status, amountCents: r.amountCents, at: r.paidAt ?? r.failedAt ?? r.updatedAt })),
  };
}

/** The current contract's monthly plan schedule, or null (a plan paid at once, nothing paid yet). */
export async function memberInstalments(db: Executor, memberId: string, now: Date): Promise<MemberInstalments | null> {
  const [member] = await db.select().from(members).where(eq(members.id, memberId)).limit(1);
  if (member?.role !== 'member') return null;
  const record = recordOf(member);
  if (!record.selectedPlanId || planById(record.selectedPlanId).type !== 'monthly') return null;
  // The schedule is the current contract's ledger (decision 175): its subscription, its refunds.
  const contract = await currentContractOf(db, memberId, record);
  if (!contract) return null;
  const [session] = await db
    .select()
    .from(checkoutSessions)
    .where(
      and(
        eq(checkoutSessions.memberId, memberId),
        eq(checkoutSessions.contractId, contract.id),
        eq(checkoutSessions.offerId, record.selectedPlanId),
        isNotNull(checkoutSessions.subscriptionId),
        isNotNull(checkoutSessions.consumedAt),
      ),
    )
    .orderBy(desc(checkoutSessions.createdAt))
    .limit(1);
  if (!session?.subscriptionId) return null;
  const rows = await db
    .select()
    .from(instalments)
    .where(eq(instalments.subscriptionId, session.subscriptionId))
    .orderBy(asc(instalments.number));
  const given = await db
    .select({ charge: refunds.checkoutSessionId, cents: sum(refunds.amountCents).mapWith(Number) })
    .from(refunds)
    .where(and(eq(refunds.contractId, contract.id), ne(refunds.status, 'failed')))
    .groupBy(refunds.checkoutSessionId);
  const refunded = new Map(given.map((g) => [g.charge, g.cents]));
  return scheduleOf(record, contract, { ...session, subscriptionId: session.subscriptionId }, rows, refunded, now);
}

/**
 * The schedules of many members at once (the agency's billing view, decision 204): the same reads
 * as `memberInstalments`, five set-based queries for all of them instead of five per member.
 */
export async function agencySchedules(db: Executor, memberIds: readonly string[], now: Date): Promise<Map<string, MemberInstalments>> {
  const result = new Map<string, MemberInstalments>();
  if (memberIds.length === 0) return result;
  const ids = [...memberIds];
  const people = await db
    .select({ id: members.id, role: members.role, onboarding: members.onboarding })
    .from(members)
    .where(inArray(members.id, ids));
  const records = new Map<string, OnboardingRecord>();
  for (const p of people) {
    if (p.role !== 'member') continue;
    const parsed = v.safeParse(onboardingRecordSchema, p.onboarding);
    if (!parsed.success) continue;
    const record = parsed.output;
    if (!record.selectedPlanId || planById(record.selectedPlanId).type !== 'monthly' || !record.subscriptionDate) continue;
    records.set(p.id, record);
  }
  if (records.size === 0) return result;
  const held = [...records.keys()];
  const contractRows = await db.select().from(contracts).where(inArray(contracts.memberId, held));
  const contractOf = new Map<string, (typeof contractRows)[number]>();
  for (const c of contractRows) {
    const record = records.get(c.memberId);
    if (record?.subscriptionDate && c.signedAt.getTime() === instantMs(record.subscriptionDate)) contractOf.set(c.memberId, c);
  }
  const sessionRows = await db
    .select()
    .from(checkoutSessions)
    .where(
      and(inArray(checkoutSessions.memberId, held), isNotNull(checkoutSessions.subscriptionId), isNotNull(checkoutSessions.consumedAt)),
    )
    .orderBy(desc(checkoutSessions.createdAt));
  const sessionOf = new Map<string, (typeof sessionRows)[number]>();
  for (const s of sessionRows) {
    if (!s.memberId || sessionOf.has(s.memberId)) continue;
    const contract = contractOf.get(s.memberId);
    if (contract && s.contractId === contract.id && s.offerId === records.get(s.memberId)?.selectedPlanId) sessionOf.set(s.memberId, s);
  }
  const subscriptionIds = [...sessionOf.values()].map((s) => s.subscriptionId as string);
  const instalmentRows =
    subscriptionIds.length === 0
      ? []
      : await db.select().from(instalments).where(inArray(instalments.subscriptionId, subscriptionIds)).orderBy(asc(instalments.number));
  const rowsOf = new Map<string, InstalmentRow[]>();
  for (const r of instalmentRows) rowsOf.set(r.subscriptionId, [...(rowsOf.get(r.subscriptionId) ?? []), r]);
  const contractIds = [...contractOf.values()].map((c) => c.id);
  const given =
    contractIds.length === 0
      ? []
      : await db
          .select({ contract: refunds.contractId, charge: refunds.checkoutSessionId, cents: sum(refunds.amountCents).mapWith(Number) })
          .from(refunds)
          .where(and(inArray(refunds.contractId, contractIds), ne(refunds.status, 'failed')))
          .groupBy(refunds.contractId, refunds.checkoutSessionId);
  const refundedOf = new Map<number, Map<string, number>>();
  for (const g of given) {
    if (g.contract === null) continue;
    const map = refundedOf.get(g.contract) ?? new Map<string, number>();
    map.set(g.charge, g.cents);
    refundedOf.set(g.contract, map);
  }
  for (const [memberId, session] of sessionOf) {
    const record = records.get(memberId);
    const contract = contractOf.get(memberId);
    if (!record || !contract || !session.subscriptionId) continue;
    const current = scheduleOf(
      record,
      contract,
      { ...session, subscriptionId: session.subscriptionId },
      rowsOf.get(session.subscriptionId) ?? [],
      refundedOf.get(contract.id) ?? new Map(),
      now,
    );
    if (current) result.set(memberId, current);
  }
  return result;
}

// ---------------------------------------------------------------------------
// Stopping the subscription at Stripe

export interface SubscriptionGateway {
  provider: 'stripe' | 'stand-in';
  /** After the N-th payment the subscription cancels itself: `cancel_at` at the end of the N-th period, no proration. */
  scheduleEnd(subscriptionId: string, instalmentCount: number): Promise<{ cancelAt: number } | null>;
  /** The contract stopped (withdrawal, renunciation, termination): nothing more is taken. */
  cancelNow(subscriptionId: string): Promise<void>;
}

/** `seconds` + `months` calendar months in UTC, the day clamped to the month's end (how Stripe bills a monthly anchor). */
export function addMonthsUtcSeconds(seconds: number, months: number): number {
  const d = new Date(seconds * 1000);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return Math.floor(target.getTime() / 1000);
}

export function stripeSubscriptionGateway(secretKey: string, options: { fetch?: typeof fetch } = {}): SubscriptionGateway {
  const stripe = lazyStripeClient(secretKey, options);
  return {
    provider: 'stripe',
    async scheduleEnd(subscriptionId, instalmentCount) {
      const api = await stripe();
      const subscription = await api.subscriptions.retrieve(subscriptionId);
      if (subscription.status === 'canceled') return null;
      const cancelAt = addMonthsUtcSeconds(subscription.billing_cycle_anchor, instalmentCount);
      if (subscription.cancel_at === cancelAt) return { cancelAt };
      await api.subscriptions.update(
        subscriptionId,
        { cancel_at: cancelAt, proration_behavior: 'none' },
        { idempotencyKey: `cancel-at-${subscriptionId}-${cancelAt}` },
      );
      return { cancelAt };
    },
    async cancelNow(subscriptionId) {
      const api = await stripe();
      await api.subscriptions.cancel(subscriptionId, {}, { idempotencyKey: `cancel-${subscriptionId}` });
    },
  };
}

/** The local stand-in charges from the schedule (bff/stand-ins/instalment-stand-in.ts): it stops by itself. */
export const standInSubscriptionGateway: SubscriptionGateway = {
  provider: 'stand-in',
  scheduleEnd: async () => null,
  cancelNow: async () => {},
};

/** Stripe with `STRIPE_SECRET_KEY`; the stand-in otherwise, never in production with live payments. */
export function subscriptionGateway(config: GatewayConfig): SubscriptionGateway {
  if (config.stripeSecretKey) return stripeSubscriptionGateway(config.stripeSecretKey);
  refuseStandInGateway(config, 'Abonnements');
  return standInSubscriptionGateway;
}

/** Never fails the caller: a provider error is logged (the next instalment event tries again). */
export async function safelyStopping(what: string, subscriptionId: string, action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
  } catch (error) {
    log.error(`abonnement Stripe : ${what} impossible, nouvel essai au prochain événement`, {
      subscriptionId,
      err: error instanceof Error ? error.message.slice(0, 300) : 'erreur inconnue',
    });
  }
}
