import * as v from 'valibot';
import type { Executor } from '#bff/mail/outbox.ts';
import { recordOf } from '#bff/members/members.ts';
import { currentContractOf } from '#bff/payments/contract-ledger.ts';
import { planSessionOfContract, subscriptionSessionsOf } from '#bff/payments/store/checkout-sessions.ts';
import { contractsOfMembers } from '#bff/payments/store/contracts.ts';
import { type InstalmentRow, instalmentsOfSubscription, instalmentsOfSubscriptions } from '#bff/payments/store/instalments.ts';
import { memberOnboardings, memberRow } from '#bff/payments/store/members.ts';
import { refundedByCharge, refundedByContractCharge } from '#bff/payments/store/refunds.ts';
import { instantMs } from '#machines/onboarding/instant.ts';
import { instalmentSchedule, type Schedule } from '#machines/onboarding/instalments.ts';
import { termEndsAtMs } from '#machines/onboarding/periods.ts';
import { planById } from '#machines/onboarding/plans.ts';
import { type OnboardingRecord, onboardingRecordSchema } from '#machines/onboarding/record.ts';

/**
 * Reading a monthly plan's schedule (decision 120): the current contract's subscription, its
 * recorded instalments and refunds, through the schedule's arithmetic — for one member (their
 * account, their file) or many at once (the stored expected lines, decision 213).
 */

export interface MemberInstalments {
  subscriptionId: string;
  schedule: Schedule;
  /** When the contract stops or reaches its term (the earlier), if known: from then on nothing unpaid is owed (decision 213 stores it). */
  endsAt: number | null;
  /** Events outside the contract (flagged to staff). */
  flagged: { number: number; status: 'paid' | 'failed'; amountCents: number; at: Date }[];
}

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
  const ends = [...stops, termEndsAtMs(record)].filter((x): x is number => x !== null);
  return {
    subscriptionId: session.subscriptionId,
    schedule,
    endsAt: ends.length > 0 ? Math.min(...ends) : null,
    flagged: rows
      .filter((r) => r.outsideContract)
      .map((r) => ({ number: r.number, status: r.status, amountCents: r.amountCents, at: r.paidAt ?? r.failedAt ?? r.updatedAt })),
  };
}

/** The current contract's monthly plan schedule, or null (a plan paid at once, nothing paid yet). */
export async function memberInstalments(db: Executor, memberId: string, now: Date): Promise<MemberInstalments | null> {
  const member = await memberRow(db, memberId);
  if (member?.role !== 'member') return null;
  const record = recordOf(member);
  if (!record.selectedPlanId || planById(record.selectedPlanId).type !== 'monthly') return null;
  // The schedule is the current contract's ledger (decision 175): its subscription, its refunds.
  const contract = await currentContractOf(db, memberId, record);
  if (!contract) return null;
  const session = await planSessionOfContract(db, memberId, contract.id, record.selectedPlanId);
  if (!session?.subscriptionId) return null;
  const rows = await instalmentsOfSubscription(db, session.subscriptionId);
  const given = await refundedByCharge(db, contract.id);
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
  const people = await memberOnboardings(db, ids);
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
  const contractRows = await contractsOfMembers(db, held);
  const contractOf = new Map<string, (typeof contractRows)[number]>();
  for (const c of contractRows) {
    const record = records.get(c.memberId);
    if (record?.subscriptionDate && c.signedAt.getTime() === instantMs(record.subscriptionDate)) contractOf.set(c.memberId, c);
  }
  const sessionRows = await subscriptionSessionsOf(db, held);
  const sessionOf = new Map<string, (typeof sessionRows)[number]>();
  for (const s of sessionRows) {
    if (!s.memberId || sessionOf.has(s.memberId)) continue;
    const contract = contractOf.get(s.memberId);
    if (contract && s.contractId === contract.id && s.offerId === records.get(s.memberId)?.selectedPlanId) sessionOf.set(s.memberId, s);
  }
  const subscriptionIds = [...sessionOf.values()].map((s) => s.subscriptionId as string);
  const instalmentRows = subscriptionIds.length === 0 ? [] : await instalmentsOfSubscriptions(db, subscriptionIds);
  const rowsOf = new Map<string, InstalmentRow[]>();
  for (const r of instalmentRows) rowsOf.set(r.subscriptionId, [...(rowsOf.get(r.subscriptionId) ?? []), r]);
  const contractIds = [...contractOf.values()].map((c) => c.id);
  const given = contractIds.length === 0 ? [] : await refundedByContractCharge(db, contractIds);
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

/** When the contract stopped early (renunciation, withdrawal, accepted termination), if it did. */
export function contractStoppedAt(record: OnboardingRecord): number | null {
  const stops = [record.contractWithdrawnAt, record.contractRenouncedAt, record.terminatedAt]
    .filter((x): x is string => typeof x === 'string')
    .map(instantMs)
    .filter(Number.isFinite);
  return stops.length > 0 ? Math.min(...stops) : null;
}
