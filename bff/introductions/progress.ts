import { contractEndDate } from '#bff/contract/contract-text.ts';
import type { Db } from '#bff/db/database.ts';
import { memberRow } from '#bff/introductions/store/people.ts';
import { refundedCentsOf } from '#bff/introductions/store/refunds.ts';
import { currentContractOf } from '#bff/payments/contract-ledger.ts';
import { memberIntroductions } from '#bff/introductions/introductions.ts';
import { recordOf } from '#bff/members/members.ts';
import { type ProgressCounts, type ProgressItem, progressCounts, progressItem } from '#machines/introductions/progress.ts';
import { contractEnd, contractEndReasonLabels } from '#machines/onboarding/contract-end.ts';
import { instantMs } from '#machines/onboarding/instant.ts';
import { parisFields } from '#machines/paris-time.ts';
import { planById } from '#machines/onboarding/plans.ts';

/**
 * `GET /api/v1/user/progress` (« Mon accompagnement », decision 117): the member's own
 * introductions with their outcome and fit, and the term of their contract — its end is the day
 * the signed contract prints (`contractEndDate`: signature day + the plan's months − 1 day).
 */

interface MemberTerm {
  /** The plan's title, or null before one is chosen. */
  plan: string | null;
  durationMonths: number | null;
  /** When the contract was signed (its start), or null before signature. */
  signedAt: string | null;
  /** The last day of the contract (`YYYY-MM-DD`, Paris), or null before signature. */
  endsOn: string | null;
  /** A sentence in French for the page when there is no date yet. */
  note: string | null;
  /**
   * The contract ended (decision 176): the day (`YYYY-MM-DD`, Paris) and how, in words, and what was
   * refunded from its ledger; null while it runs. `endsOn` is then null: nothing « prend fin » any more.
   */
  ended: { on: string; reason: string; refundedCents: number } | null;
}

export interface MemberProgress {
  counts: ProgressCounts;
  introductions: ProgressItem[];
  term: MemberTerm;
}

type TermFields = Parameters<typeof contractEnd>[0];

function termOf(onboarding: TermFields, now: number, refundedCents = 0): MemberTerm {
  const plan = onboarding.selectedPlanId ? planById(onboarding.selectedPlanId) : null;
  const signed = onboarding.subscriptionDate ? new Date(instantMs(onboarding.subscriptionDate)) : null;
  const end = plan && signed && Number.isFinite(signed.getTime()) ? contractEndDate(signed, plan.durationMonths) : null;
  const over = contractEnd(onboarding, now);
  // The day it ended: the right's own day, or the last day the contract printed for the term.
  const endedOn = over ? parisDay(over.reason === 'terme' ? over.at - 1 : over.at) : null;
  return {
    plan: plan?.title ?? null,
    durationMonths: plan?.durationMonths ?? null,
    signedAt: signed && end ? signed.toISOString() : null,
    endsOn: end && !over ? end.toISOString().slice(0, 10) : null,
    note: over ? null : end ? null : plan ? 'Date de fin communiquée à la signature.' : 'Votre formule n’est pas encore choisie.',
    ended: over && endedOn ? { on: endedOn, reason: contractEndReasonLabels[over.reason], refundedCents } : null,
  };
}

/** `YYYY-MM-DD` of the Paris day of instant `ms`. */
function parisDay(ms: number): string {
  const f = parisFields(ms);
  return `${f.year}-${String(f.month).padStart(2, '0')}-${String(f.day).padStart(2, '0')}`;
}

/** What refunds (not failed) gave back from the member's current contract (decision 175). */
async function refundedFromCurrentContract(db: Db, memberId: string, record: TermFields): Promise<number> {
  const contract = await currentContractOf(db, memberId, record);
  if (!contract) return 0;
  return refundedCentsOf(db, contract.id);
}

export async function memberProgress(db: Db, memberId: string, now: Date): Promise<MemberProgress> {
  const views = await memberIntroductions(db, memberId, now);
  const row = await memberRow(db, memberId);
  const record = row ? recordOf(row) : null;
  // Oldest first: the story of the term.
  const ordered = [...views].sort((x, y) => Date.parse(x.proposedAt) - Date.parse(y.proposedAt));
  return {
    counts: progressCounts(ordered, now.getTime()),
    // The first name stays in the history when the summary is gone (decision 194).
    introductions: ordered.map((view) =>
      progressItem({ ...view, other: view.other ?? (view.otherFirstName ? { firstName: view.otherFirstName } : null) }),
    ),
    term: record
      ? termOf(record, now.getTime(), await refundedFromCurrentContract(db, memberId, record))
      : termOf({ selectedPlanId: null, subscriptionDate: null }, now.getTime()),
  };
}
