// The members' change requests after signature (`member_change_requests`, decision 123): stored, locked, decided, listed.
import { and, desc, eq } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { type ChangeSection, memberChangeRequests } from '#bff/db/change-requests-schema.ts';

export type ChangeRequestRow = typeof memberChangeRequests.$inferSelect;

/** The member's pending request of this section, if any. */
export async function pendingChangeRequest(tx: Transaction, memberId: string, section: ChangeSection): Promise<{ id: number } | undefined> {
  const [pending] = await tx
    .select({ id: memberChangeRequests.id })
    .from(memberChangeRequests)
    .where(
      and(
        eq(memberChangeRequests.memberId, memberId),
        eq(memberChangeRequests.section, section),
        eq(memberChangeRequests.status, 'pending'),
      ),
    )
    .limit(1);
  return pending;
}

/** A new request, as stored. */
export async function insertChangeRequest(
  tx: Transaction,
  row: typeof memberChangeRequests.$inferInsert,
): Promise<ChangeRequestRow | undefined> {
  const [created] = await tx.insert(memberChangeRequests).values(row).returning();
  return created;
}

/** The member's requests, newest first. */
export function changeRequestRows(db: Db, memberId: string): Promise<ChangeRequestRow[]> {
  return db
    .select()
    .from(memberChangeRequests)
    .where(eq(memberChangeRequests.memberId, memberId))
    .orderBy(desc(memberChangeRequests.createdAt), desc(memberChangeRequests.id));
}

/** One request, locked for the caller's transaction (`for update`), if any. */
export async function lockChangeRequest(tx: Transaction, id: number): Promise<ChangeRequestRow | undefined> {
  const [request] = await tx.select().from(memberChangeRequests).where(eq(memberChangeRequests.id, id)).limit(1).for('update');
  return request;
}

/** Records staff's decision on a request; the request as stored, if any. */
export async function decideChangeRequestRow(
  tx: Transaction,
  id: number,
  decision: Pick<ChangeRequestRow, 'status' | 'decidedAt' | 'decidedBy' | 'decisionNote'>,
): Promise<ChangeRequestRow | undefined> {
  const [updated] = await tx.update(memberChangeRequests).set(decision).where(eq(memberChangeRequests.id, id)).returning();
  return updated;
}
