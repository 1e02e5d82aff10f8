import { type MatchingExecutor, matchProfileOf, profileOf } from '#bff/matching/store/match-profiles.ts';
import { type CandidateFilters, rankedCandidateRows } from '#bff/matching/store/ranking-sql.ts';
import { brokenRequired, type CriterionResult, MAX_SCORE, pairCriteria } from '#machines/matching/criteria.ts';
import { availableAt, type MatchProfile } from '#machines/matching/match-profile.ts';
import type { RequirableCriterion } from '#machines/onboarding/forms.ts';

/**
 * Candidates for a member (issue 22, staff side). `rankCandidates` evaluates every indispensable
 * criterion of machines/matching/criteria.ts, both ways, in one SQL statement on indexed columns
 * (the pool index on gender and birth date), scores every criterion in the same statement, and
 * reads back only the `limit` best rows; the verdicts of those rows are then written by the pure
 * functions, which the tests hold the SQL to (decisions 113, 193 and 212).
 */

export interface RankOptions {
  /** How many candidates at most (default 20, at most 200; one more to know whether a next page exists). */
  limit?: number;
  /** How many of the best to skip (paging, decision 201). */
  offset?: number;
  filters?: CandidateFilters;
  /** Members never to propose: already proposed, declined, in an open introduction. */
  excludeMemberIds?: readonly string[];
  /** Only those who break an indispensable criterion of either side (staff's exceptions, decision 193). */
  outsideRequired?: boolean;
  now?: number;
}

interface RankedCandidate {
  memberId: string;
  score: number;
  maxScore: number;
  profile: MatchProfile;
  /** Every criterion, both ways: the member's judged on the candidate, then the candidate's on the member. */
  reasons: CriterionResult[];
  /** The indispensable criteria broken: the member's, the candidate's (empty both ways in the ranked list). */
  broken: { membre: RequirableCriterion[]; candidat: RequirableCriterion[] };
}

export interface Ranking {
  /** The member's profile, or null without one (steps 1-2 not done). */
  member: MatchProfile | null;
  /** Empty when the member cannot be proposed (see `member.unavailableReason`). */
  candidates: RankedCandidate[];
}

export const DEFAULT_CANDIDATES = 20;
export const MAX_CANDIDATES = 200;

/**
 * Ranks the candidates for a member: available members of the other sex, no indispensable
 * criterion of either side broken, not excluded, within staff's filters, best two-way score
 * first (ties by member id), at most `limit`. With `outsideRequired`, the other way round: those
 * that break at least one indispensable criterion (staff may still propose them, with a reason
 * written to the member: decision 193).
 */
export async function rankCandidates(executor: MatchingExecutor, memberId: string, options: RankOptions = {}): Promise<Ranking> {
  const now = options.now ?? Date.now();
  const me = await matchProfileOf(executor, memberId);
  if (!me || !availableAt(me, now)) return { member: me, candidates: [] };
  const rows = await rankedCandidateRows(executor, me, {
    limit: Math.max(1, Math.min(MAX_CANDIDATES + 1, Math.floor(options.limit ?? DEFAULT_CANDIDATES))),
    offset: Math.max(0, Math.floor(options.offset ?? 0)),
    filters: options.filters ?? {},
    excludeMemberIds: options.excludeMemberIds ?? [],
    outsideRequired: options.outsideRequired ?? false,
    now,
  });
  if (!rows) return { member: me, candidates: [] };
  const candidates = rows.map((row) => {
    const profile = profileOf(row);
    const broken = brokenRequired(me, profile, now);
    return {
      memberId: profile.memberId,
      score: Number(row.score),
      maxScore: MAX_SCORE,
      profile,
      reasons: pairCriteria(me, profile, now),
      broken: { membre: broken.a, candidat: broken.b },
    };
  });
  return { member: me, candidates };
}
