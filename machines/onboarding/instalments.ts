import { parisFields, parisOffsetMs } from '#machines/paris-time.ts';
import { type PlanId, planById } from '#machines/onboarding/plans.ts';

/**
 * The instalment schedule of a monthly plan (decision 120): instalment 1 is paid at the payment
 * step (with the file fee, through the checkout); instalment n falls n − 1 months later, on the
 * same day number at the same Paris wall-clock time (the last day of a shorter month: 31 January
 * → 28/29 February → 31 March, as Stripe's billing anchor does). One pure function, read by the
 * member's account, the staff's member page, the billing view and the local stand-in that charges
 * what is due.
 */

/** Stored codes; the words shown are in the label table (`instalmentStatusLabels`). */
export const instalmentStatuses = ['payee', 'a-venir', 'echouee', 'annulee', 'remboursee'] as const;
export type InstalmentStatus = (typeof instalmentStatuses)[number];

/** A recorded instalment event (instalments 2…N, and any arriving after the end). */
export interface RecordedInstalment {
  number: number;
  status: 'paid' | 'failed';
  /** When it was paid, or when the (last) attempt failed. */
  at: number;
  amountCents: number;
  /** What refunds (not failed) gave back from this charge (decision 175). */
  refundedCents?: number;
  /** Arrived for a stopped contract: refunded at once, never counted as paid under it. */
  outside?: boolean;
}

export interface ScheduleInput {
  planId: PlanId;
  /** When instalment 1 was paid (the checkout session); null: nothing paid yet, no schedule. */
  firstPaidAt: number | null;
  /** What refunds gave back from instalment 1's checkout session. */
  firstRefundedCents?: number;
  recorded: readonly RecordedInstalment[];
  /** The contract stopped early (withdrawal, renunciation, accepted termination): nothing falls due from then on, nothing unpaid is owed. */
  stoppedAt: number | null;
  /** The term's end (termEndsAtMs): nothing falls due from then on. */
  termEndsAt: number | null;
  now: number;
}

export interface ScheduleRow {
  number: number;
  of: number;
  dueAt: number;
  amountCents: number;
  status: InstalmentStatus;
  paidAt: number | null;
  failedAt: number | null;
  /** What was given back from it (a withdrawal, a termination, a charge after the stop). */
  refundedCents: number;
  /** Due and not paid yet: what a charge now would take (never when cancelled). */
  due: boolean;
  /** Paid although the contract had ended or stopped: to be refunded by staff. */
  afterEnd: boolean;
}

export interface Schedule {
  planId: PlanId;
  of: number;
  rows: ScheduleRow[];
  /** Instalment events beyond the N of the plan: never expected, always flagged. */
  extra: RecordedInstalment[];
  paidCount: number;
  paidCents: number;
  /** What refunds gave back from the instalments (decision 175). */
  refundedCents: number;
  /** What is still to be paid (instalments à venir or échouées); 0 once the contract stopped or ended. */
  leftCents: number;
  next: ScheduleRow | null;
}

/** The instant `months` months after `fromMs`, same Paris day number (clamped to the month's end) and wall-clock time. */
export function addMonthsParis(fromMs: number, months: number): number {
  const f = parisFields(fromMs);
  const monthIndex = f.month - 1 + months;
  const lastDay = new Date(Date.UTC(f.year, monthIndex + 1, 0)).getUTCDate();
  const wall = Date.UTC(f.year, monthIndex, Math.min(f.day, lastDay), f.hour, f.minute, f.second, fromMs % 1000);
  return wall - parisOffsetMs(wall - parisOffsetMs(wall));
}

/** When instalment `n` (1-based) falls due. */
export function instalmentDueAt(firstPaidAt: number, n: number): number {
  return n === 1 ? firstPaidAt : addMonthsParis(firstPaidAt, n - 1);
}

/** The schedule of a monthly plan; null for a plan paid at once. */
export function instalmentSchedule(input: ScheduleInput): Schedule | null {
  const plan = planById(input.planId);
  if (plan.type !== 'monthly') return null;
  const of = plan.installments;
  const empty: Schedule = {
    planId: plan.id,
    of,
    rows: [],
    extra: [],
    paidCount: 0,
    paidCents: 0,
    refundedCents: 0,
    leftCents: 0,
    next: null,
  };
  if (input.firstPaidAt === null) return empty;
  const byNumber = new Map<number, RecordedInstalment>();
  for (const r of input.recorded) {
    const known = byNumber.get(r.number);
    // A paid event wins over a failed one for the same instalment (a retry that succeeded).
    // …and a charge under the contract over one that arrived after its stop.
    const better = !known || (r.status === 'paid' && (known.status !== 'paid' || (known.outside === true && r.outside !== true)));
    if (better || (known.status === 'failed' && r.status === 'failed' && r.at > known.at)) byNumber.set(r.number, r);
  }
  const ends = [input.stoppedAt, input.termEndsAt].filter((x): x is number => x !== null);
  const endAt = ends.length > 0 ? Math.min(...ends) : null;
  // Once the contract has stopped or reached its term, nothing unpaid is owed any more.
  const over = endAt !== null && input.now >= endAt;
  const rows: ScheduleRow[] = [];
  for (let n = 1; n <= of; n += 1) {
    const dueAt = instalmentDueAt(input.firstPaidAt, n);
    const recorded: RecordedInstalment | undefined =
      n === 1
        ? { number: 1, status: 'paid', at: input.firstPaidAt, amountCents: plan.priceCents, refundedCents: input.firstRefundedCents ?? 0 }
        : byNumber.get(n);
    const ended = n > 1 && endAt !== null && (dueAt >= endAt || over);
    const refundedCents = recorded?.status === 'paid' ? (recorded.refundedCents ?? 0) : 0;
    let status: InstalmentStatus;
    if (recorded?.status === 'paid') status = refundedCents >= recorded.amountCents ? 'remboursee' : 'payee';
    else if (ended) status = 'annulee';
    else if (recorded?.status === 'failed') status = 'echouee';
    else status = 'a-venir';
    rows.push({
      number: n,
      of,
      dueAt,
      amountCents: recorded?.status === 'paid' ? recorded.amountCents : plan.priceCents,
      status,
      paidAt: recorded?.status === 'paid' ? recorded.at : null,
      failedAt: recorded?.status === 'failed' ? recorded.at : null,
      refundedCents,
      due: (status === 'a-venir' || status === 'echouee') && dueAt <= input.now,
      afterEnd: n > 1 && recorded?.status === 'paid' && endAt !== null && recorded.at >= endAt,
    });
  }
  const extra = input.recorded.filter((r) => r.number > of || r.number < 1);
  const paid = rows.filter((r) => r.status === 'payee' || r.status === 'remboursee');
  const open = rows.filter((r) => r.status === 'a-venir' || r.status === 'echouee');
  return {
    planId: plan.id,
    of,
    rows,
    extra,
    paidCount: paid.length,
    paidCents: paid.reduce((sum, r) => sum + r.amountCents, 0),
    refundedCents: rows.reduce((sum, r) => sum + r.refundedCents, 0),
    leftCents: open.reduce((sum, r) => sum + r.amountCents, 0),
    next: open[0] ?? null,
  };
}

/** Whether an instalment event for `number`, arriving at `at`, falls outside the contract (flagged to staff, never invoiced). */
export function instalmentOutsideContract(input: {
  number: number;
  of: number;
  at: number;
  stoppedAt: number | null;
  termEndsAt: number | null;
}): boolean {
  if (input.number > input.of) return true;
  if (input.stoppedAt !== null && input.at >= input.stoppedAt) return true;
  return input.termEndsAt !== null && input.at >= input.termEndsAt;
}
