import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import { memberPresentations } from '#bff/db/presentation-schema.ts';
import { validationError } from '#bff/http/errors.ts';
import type { MatchingExecutor } from '#bff/matching/candidates.ts';
import { PresentationBody } from '#machines/matching/presentation.ts';

/**
 * The member's short presentation (issue 22, decision 128). Who reads it: the member (their own,
 * from the session), the other side of a proposal inside the anonymised summary only
 * (bff/introductions/introductions.ts `otherPerson`, not once the sensitive-data consent is
 * withdrawn), staff on the member's file (logged as the file read) and beside the candidates
 * (logged `member_presentation`). No route takes another member's id for a member.
 */

export interface StoredPresentation {
  text: string;
  updatedAt: string;
}

export async function presentationOf(executor: MatchingExecutor, memberId: string): Promise<StoredPresentation | null> {
  const [row] = await executor
    .select({ body: memberPresentations.body, updatedAt: memberPresentations.updatedAt })
    .from(memberPresentations)
    .where(eq(memberPresentations.memberId, memberId))
    .limit(1);
  return row ? { text: row.body, updatedAt: row.updatedAt.toISOString() } : null;
}

/** Validates and writes (empty: removes) the member's presentation; bad input is a French 400 and changes nothing. */
export async function savePresentation(db: Db, memberId: string, body: unknown, now: Date): Promise<StoredPresentation | null> {
  const parsed = v.safeParse(PresentationBody, body);
  if (!parsed.success) throw validationError(parsed.issues, parsed.issues[0]?.message ?? 'Présentation invalide.');
  const text = parsed.output.presentation;
  return db.transaction(async (tx) => {
    if (text === '') {
      await tx.delete(memberPresentations).where(eq(memberPresentations.memberId, memberId));
      return null;
    }
    await tx
      .insert(memberPresentations)
      .values({ memberId, body: text, updatedAt: now })
      .onConflictDoUpdate({ target: memberPresentations.memberId, set: { body: text, updatedAt: now } });
    return { text, updatedAt: now.toISOString() };
  });
}
