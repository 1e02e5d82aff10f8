import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import type { PresentationStatus } from '#bff/db/presentation-schema.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import type { MatchingExecutor } from '#bff/matching/store/match-profiles.ts';
import {
  approvedPresentationText,
  deletePresentation,
  lockPresentation,
  type PresentationRow,
  presentationMemberIds,
  presentationRow,
  updatePresentationReview,
  upsertPresentation,
  waitingPresentationRows,
} from '#bff/matching/store/presentations.ts';
import { PresentationBody, PresentationReviewBody } from '#machines/matching/presentation.ts';

/**
 * The member's short presentation (issue 22, decision 128), reviewed by staff (issue 62 point 6,
 * decision 200). Who reads what: the member their own, with where staff stand (`presentationOf`,
 * from the session); the other side of a proposal only the last version staff approved, inside
 * the anonymised summary (`approvedPresentationOf`, bff/introductions/introductions.ts
 * `otherPerson`, not once the sensitive-data consent is withdrawn); staff everything, on the
 * member's file, beside the candidates (logged `member_presentation`) and in the review queue.
 * No route takes another member's id for a member.
 */

export interface StoredPresentation {
  /** What the member last wrote. */
  text: string;
  updatedAt: string;
  status: PresentationStatus;
  /** The last version staff approved (what another member reads), or null. */
  approvedText: string | null;
  /** Staff's message when they refused `text`. */
  refusal: string | null;
  reviewedAt: string | null;
}

const stored = (row: PresentationRow): StoredPresentation => ({
  text: row.body,
  updatedAt: row.updatedAt.toISOString(),
  status: row.status,
  approvedText: row.approvedBody,
  refusal: row.refusal,
  reviewedAt: row.reviewedAt?.toISOString() ?? null,
});

export async function presentationOf(executor: MatchingExecutor, memberId: string): Promise<StoredPresentation | null> {
  const row = await presentationRow(executor, memberId);
  return row ? stored(row) : null;
}

/** What another member may read: the last approved version, or nothing (decision 200). */
export async function approvedPresentationOf(executor: MatchingExecutor, memberId: string): Promise<string | null> {
  return approvedPresentationText(executor, memberId);
}

/**
 * Validates and writes (empty: removes) the member's presentation; bad input is a French 400 and
 * changes nothing. A new text waits for staff (`en-attente`), the approved one stays shown
 * meanwhile; the text staff last approved, written again, needs no new review.
 */
export async function savePresentation(db: Db, memberId: string, body: unknown, now: Date): Promise<StoredPresentation | null> {
  const parsed = v.safeParse(PresentationBody, body);
  if (!parsed.success) throw validationError(parsed.issues, parsed.issues[0]?.message ?? 'Présentation invalide.');
  const text = parsed.output.presentation;
  return db.transaction(async (tx) => {
    if (text === '') {
      await deletePresentation(tx, memberId);
      return null;
    }
    return stored(await upsertPresentation(tx, memberId, text, now));
  });
}

export interface WaitingPresentation {
  memberId: string;
  name: string | null;
  text: string;
  updatedAt: string;
  /** What other members read meanwhile (the last approved version), or null. */
  approvedText: string | null;
}

/** The staff's review queue: every presentation waiting, the oldest first. */
export async function presentationsWaiting(executor: MatchingExecutor): Promise<WaitingPresentation[]> {
  const rows = await waitingPresentationRows(executor);
  return rows.map((r) => {
    const profile = r.profile as { firstName?: unknown; lastName?: unknown } | null;
    const parts = [profile?.firstName, profile?.lastName].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
    return {
      memberId: r.memberId,
      name: parts.length > 0 ? parts.join(' ') : null,
      text: r.body,
      updatedAt: r.updatedAt.toISOString(),
      approvedText: r.approvedBody,
    };
  });
}

/**
 * Staff approve or refuse the text they read (`updatedAt` names it: a text the member changed
 * since is 409, nothing written). Approving makes it what other members read; refusing keeps the
 * earlier approved version and gives the member the message.
 */
export async function reviewPresentation(db: Db, memberId: string, body: unknown, staffId: string, now: Date): Promise<StoredPresentation> {
  const parsed = v.safeParse(PresentationReviewBody, body);
  if (!parsed.success) throw validationError(parsed.issues, parsed.issues[0]?.message ?? 'Décision invalide.');
  const decision = parsed.output;
  return db.transaction(async (tx) => {
    const row = await lockPresentation(tx, memberId);
    if (!row) throw new ApiError(404, 'PRESENTATION_NOT_FOUND', 'Ce membre n’a pas de présentation.');
    if (row.updatedAt.toISOString() !== new Date(decision.updatedAt).toISOString())
      throw new ApiError(409, 'PRESENTATION_CHANGED', 'Le membre a modifié sa présentation depuis : relisez-la avant de décider.');
    if (row.status !== 'en-attente') throw new ApiError(409, 'PRESENTATION_REVIEWED', 'Cette présentation a déjà été examinée.');
    const set =
      decision.decision === 'approuver'
        ? { status: 'approuvee' as const, approvedBody: row.body, refusal: null, reviewedAt: now, reviewedBy: staffId }
        : { status: 'refusee' as const, refusal: decision.message, reviewedAt: now, reviewedBy: staffId };
    return stored(await updatePresentationReview(tx, memberId, set));
  });
}

/** Which of these members wrote a presentation (lower-case ids): only whether, the text is read on request, logged (decision 128). */
export async function withPresentationAmong(executor: MatchingExecutor, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const stored = await presentationMemberIds(executor, ids);
  return new Set(stored.map((id) => id.toLowerCase()));
}
