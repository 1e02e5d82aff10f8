import * as v from 'valibot';
import type { IntroductionRow } from '#bff/db/introductions-schema.ts';
import { ApiError } from '#bff/http/errors.ts';
import { exclusionIds, isEngaged, openIntroductionCount } from '#bff/introductions/store/introductions.ts';
import type { MatchingExecutor } from '#bff/matching/candidates.ts';
import type { IntroductionContext } from '#machines/introductions/context.ts';
import { type Side, stateLabel } from '#machines/introductions/labels.ts';
import { type StoredIntroduction, storedIntroductionSchema } from '#machines/introductions/restore.ts';
import { type IneligibilityCode, ineligibilityTexts, MAX_OPEN_INTRODUCTIONS_PER_MEMBER } from '#machines/introductions/rules.ts';
import { availableAt, type MatchProfile, type UnavailableReason } from '#machines/matching/match-profile.ts';

/**
 * The BFF's authority over introductions (issue 22), as `applyOnboardingUpdate` is over onboarding:
 * one transaction per event, the chart restored from the stored row (`decideEvent`), the new row
 * written at version + 1 only if nobody wrote first (optimistic), an append-only log row beside
 * it, a refused event answered 409 with the current state. A member acts on their own side only
 * (derived from the session, never from the body) and gets 404 for any introduction that is not
 * theirs: a member never learns that an introduction between others exists.
 */

/** Who sends an event: staff, a member (for their own side), or the server's scheduler (as staff for the chart). */
export interface IntroductionActor {
  id: string | null;
  role: 'member' | 'staff' | 'system';
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const MAX_ATTEMPTS = 8;

export const notFound = () => new ApiError(404, 'INTRODUCTION_NOT_FOUND', 'Mise en relation introuvable.');
export const conflict = (message: string) => new ApiError(409, 'INTRODUCTION_REFUSED', message);

export function refused(state: string): ApiError {
  return new ApiError(
    409,
    'TRANSITION_REFUSED',
    `Cette action n’est pas possible pour le moment : la mise en relation est « ${stateLabel(state)} ».`,
    { state },
  );
}

/** The stored row as the chart reads it (the context is validated: a row that is not one is a bug). */
export function storedOfRow(row: IntroductionRow): StoredIntroduction {
  return v.parse(storedIntroductionSchema, { state: row.state, context: row.context, version: row.version });
}

export function sideOfMember(row: Pick<IntroductionRow, 'memberA' | 'memberB'>, memberId: string): Side | null {
  const id = memberId.toLowerCase();
  if (row.memberA.toLowerCase() === id) return 'a';
  if (row.memberB.toLowerCase() === id) return 'b';
  return null;
}

export function memberOfSide(row: Pick<IntroductionRow, 'memberA' | 'memberB'>, side: Side): string {
  return side === 'a' ? row.memberA : row.memberB;
}

/** The round of the pair: 0 for the first proposal, n after n re-openings (mails are once per round). */
export function roundOf(context: IntroductionContext): number {
  return context.history.length;
}

/** Open introductions of a member now (they count towards the limit). */
export async function openCountOf(executor: MatchingExecutor, memberId: string): Promise<number> {
  return openIntroductionCount(executor, memberId);
}

const ineligibilityOfReason: Record<UnavailableReason, IneligibilityCode> = {
  efface: 'compte-efface',
  desactive: 'compte-desactive',
  'contrat-termine': 'contrat-termine',
  // A termination asked (decision 119): the contract is ending, no new introduction.
  'resiliation-demandee': 'contrat-termine',
  'pas-encore-actif': 'pas-encore-actif',
  'profil-incomplet': 'pas-encore-actif',
  'consentement-absent': 'consentement-retire',
  'mise-en-relation-suspendue': 'consentement-retire',
};

/** `true`, or why the member cannot be proposed now (from their match profile and introductions). */
export async function eligibilityOf(
  executor: MatchingExecutor,
  profile: MatchProfile | null,
  nowMs: number,
): Promise<true | IneligibilityCode> {
  if (!profile) return 'pas-encore-actif';
  if (!availableAt(profile, nowMs)) {
    if (profile.contractEndsAt !== null && profile.contractEndsAt <= nowMs) return 'contrat-termine';
    return ineligibilityOfReason[profile.unavailableReason ?? 'pas-encore-actif'];
  }
  if (await isEngaged(executor, profile.memberId)) return 'fiancailles';
  return true;
}

/**
 * Members never to rank for `memberId`: everyone ever proposed with them (one proposal per pair,
 * ever), and anyone who cannot take one more introduction now (at the limit of open ones, or
 * engaged). Fed to `rankCandidates` as `excludeMemberIds`.
 */
export async function exclusionsFor(executor: MatchingExecutor, memberId: string): Promise<string[]> {
  if (!UUID.test(memberId)) return [];
  const ids = await exclusionIds(executor, memberId);
  return ids.filter((id) => id !== memberId.toLowerCase());
}

/** Why the member may not get one more introduction now (engaged, or at the limit of open ones), or null. */
export async function introductionBlockOf(executor: MatchingExecutor, memberId: string): Promise<string | null> {
  if (!UUID.test(memberId)) return null;
  if (await isEngaged(executor, memberId)) return ineligibilityTexts.fiancailles;
  if ((await openCountOf(executor, memberId)) >= MAX_OPEN_INTRODUCTIONS_PER_MEMBER) {
    return `Le membre a déjà ${MAX_OPEN_INTRODUCTIONS_PER_MEMBER} mises en relation en cours, le maximum.`;
  }
  return null;
}
