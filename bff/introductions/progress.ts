import { eq } from 'drizzle-orm';
import { contractEndDate } from '#bff/contract/contract-text.ts';
import type { Db } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';
import { memberIntroductions } from '#bff/introductions/introductions.ts';
import { recordOf } from '#bff/members/members.ts';
import { type ProgressCounts, type ProgressItem, progressCounts, progressItem } from '#machines/introductions/progress.ts';
import { instantMs } from '#machines/onboarding/instant.ts';
import { planById } from '#machines/onboarding/plans.ts';

/**
 * `GET /api/v1/user/progress` (« Mon accompagnement », decision 117): the member's own
 * introductions with their outcome and fit, and the term of their contract — its end is the day
 * the signed contract prints (`contractEndDate`: signature day + the plan's months − 1 day).
 */

export interface MemberTerm {
  /** The plan's title, or null before one is chosen. */
  plan: string | null;
  durationMonths: number | null;
  /** When the contract was signed (its start), or null before signature. */
  signedAt: string | null;
  /** The last day of the contract (`YYYY-MM-DD`, Paris), or null before signature. */
  endsOn: string | null;
  /** A sentence in French for the page when there is no date yet. */
  note: string | null;
}

export interface MemberProgress {
  counts: ProgressCounts;
  introductions: ProgressItem[];
  term: MemberTerm;
}

export function termOf(onboarding: { selectedPlanId: Parameters<typeof planById>[0] | null; subscriptionDate: string | null }): MemberTerm {
  const plan = onboarding.selectedPlanId ? planById(onboarding.selectedPlanId) : null;
  const signed = onboarding.subscriptionDate ? new Date(instantMs(onboarding.subscriptionDate)) : null;
  const end = plan && signed && Number.isFinite(signed.getTime()) ? contractEndDate(signed, plan.durationMonths) : null;
  return {
    plan: plan?.title ?? null,
    durationMonths: plan?.durationMonths ?? null,
    signedAt: signed && end ? signed.toISOString() : null,
    endsOn: end ? end.toISOString().slice(0, 10) : null,
    note: end ? null : plan ? 'Date de fin communiquée à la signature.' : 'Votre formule n’est pas encore choisie.',
  };
}

export async function memberProgress(db: Db, memberId: string, now: Date): Promise<MemberProgress> {
  const views = await memberIntroductions(db, memberId, now);
  const [row] = await db.select().from(members).where(eq(members.id, memberId)).limit(1);
  const record = row ? recordOf(row) : null;
  // Oldest first: the story of the term.
  const ordered = [...views].sort((x, y) => Date.parse(x.proposedAt) - Date.parse(y.proposedAt));
  return {
    counts: progressCounts(ordered, now.getTime()),
    introductions: ordered.map(progressItem),
    term: termOf(record ?? { selectedPlanId: null, subscriptionDate: null }),
  };
}
