import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import { type PresentationStatus, memberPresentations } from '#bff/db/presentation-schema.ts';
import { members } from '#bff/db/schema.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import type { MatchingExecutor } from '#bff/matching/candidates.ts';
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

const columns = {
  body: memberPresentations.body,
  updatedAt: memberPresentations.updatedAt,
  status: memberPresentations.status,
  approvedBody: memberPresentations.approvedBody,
  refusal: memberPresentations.refusal,
  reviewedAt: memberPresentations.reviewedAt,
};

type Row = {
  body: string;
  updatedAt: Date;
  status: PresentationStatus;
  approvedBody: string | null;
  refusal: string | null;
  reviewedAt: Date | null;
};

const stored = (row: Row): StoredPresentation => ({
  text: row.body,
  updatedAt: row.updatedAt.toISOString(),
  status: row.status,
  approvedText: row.approvedBody,
  refusal: row.refusal,
  reviewedAt: row.reviewedAt?.toISOString() ?? null,
});

export async function presentationOf(executor: MatchingExecutor, memberId: string): Promise<StoredPresentation | null> {
  const [row] = await executor.select(columns).from(memberPresentations).where(eq(memberPresentations.memberId, memberId)).limit(1);
  return row ? stored(row) : null;
}

/** What another member may read: the last approved version, or nothing (decision 200). */
export async function approvedPresentationOf(executor: MatchingExecutor, memberId: string): Promise<string | null> {
  const [row] = await executor
    .select({ approved: memberPresentations.approvedBody })
    .from(memberPresentations)
    .where(eq(memberPresentations.memberId, memberId))
    .limit(1);
  return row?.approved ?? null;
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
      await tx.delete(memberPresentations).where(eq(memberPresentations.memberId, memberId));
      return null;
    }
    const status = sql<PresentationStatus>`CASE WHEN ${memberPresentations.approvedBody} = ${text} THEN 'approuvee' ELSE 'en-attente' END`;
    const [row] = await tx
      .insert(memberPresentations)
      .values({ memberId, body: text, updatedAt: now, status: 'en-attente' })
      .onConflictDoUpdate({
        target: memberPresentations.memberId,
        set: { body: text, updatedAt: now, status, refusal: null },
      })
      .returning(columns);
    return stored(row as Row);
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
  const rows = await executor
    .select({ memberId: members.id, profile: members.profile, ...columns })
    .from(memberPresentations)
    .innerJoin(members, eq(members.id, memberPresentations.memberId))
    .where(and(eq(memberPresentations.status, 'en-attente'), eq(members.role, 'member')))
    .orderBy(asc(memberPresentations.updatedAt), asc(members.id))
    .limit(200);
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
    const [row] = await tx
      .select(columns)
      .from(memberPresentations)
      .where(eq(memberPresentations.memberId, memberId))
      .for('update')
      .limit(1);
    if (!row) throw new ApiError(404, 'PRESENTATION_NOT_FOUND', 'Ce membre n’a pas de présentation.');
    if (row.updatedAt.toISOString() !== new Date(decision.updatedAt).toISOString())
      throw new ApiError(409, 'PRESENTATION_CHANGED', 'Le membre a modifié sa présentation depuis : relisez-la avant de décider.');
    if (row.status !== 'en-attente') throw new ApiError(409, 'PRESENTATION_REVIEWED', 'Cette présentation a déjà été examinée.');
    const set =
      decision.decision === 'approuver'
        ? { status: 'approuvee' as const, approvedBody: row.body, refusal: null, reviewedAt: now, reviewedBy: staffId }
        : { status: 'refusee' as const, refusal: decision.message, reviewedAt: now, reviewedBy: staffId };
    const [updated] = await tx.update(memberPresentations).set(set).where(eq(memberPresentations.memberId, memberId)).returning(columns);
    return stored(updated as Row);
  });
}

/** Which of these members wrote a presentation (lower-case ids): only whether, the text is read on request, logged (decision 128). */
export async function withPresentationAmong(executor: MatchingExecutor, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await executor
    .select({ id: memberPresentations.memberId })
    .from(memberPresentations)
    .where(inArray(memberPresentations.memberId, [...ids]));
  return new Set(rows.map((r) => r.id.toLowerCase()));
}
