// The termination requests for a legitimate reason (`contract_terminations`, decision 119): recorded, decided, read.
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Transaction } from '#bff/db/database.ts';
import { contractTerminations } from '#bff/db/credit-notes-schema.ts';

export type TerminationRow = typeof contractTerminations.$inferSelect;

/** A new request, in the caller's transaction. */
export async function insertTermination(tx: Transaction, row: typeof contractTerminations.$inferInsert): Promise<void> {
  await tx.insert(contractTerminations).values(row);
}

/** The member's latest request still waiting for a decision, if any. */
export async function pendingTerminationRow(tx: Transaction, memberId: string): Promise<TerminationRow | undefined> {
  const [request] = await tx
    .select()
    .from(contractTerminations)
    .where(and(eq(contractTerminations.memberId, memberId), isNull(contractTerminations.decision)))
    .orderBy(desc(contractTerminations.requestedAt))
    .limit(1);
  return request;
}

/** Records staff's decision on a request. */
export async function decideTermination(
  tx: Transaction,
  id: number,
  decision: Pick<TerminationRow, 'decision' | 'decidedAt' | 'decidedBy'> & Partial<Pick<TerminationRow, 'refusalReason'>>,
): Promise<void> {
  await tx.update(contractTerminations).set(decision).where(eq(contractTerminations.id, id));
}

/** The member's latest request, if any. */
export async function latestTerminationRow(tx: Pick<Transaction, 'select'>, memberId: string): Promise<TerminationRow | undefined> {
  const [row] = await tx
    .select()
    .from(contractTerminations)
    .where(eq(contractTerminations.memberId, memberId))
    .orderBy(desc(contractTerminations.requestedAt))
    .limit(1);
  return row;
}

/** The member's requests, newest first. */
export function terminationRowsOf(tx: Pick<Transaction, 'select'>, memberId: string): Promise<TerminationRow[]> {
  return tx
    .select()
    .from(contractTerminations)
    .where(eq(contractTerminations.memberId, memberId))
    .orderBy(desc(contractTerminations.requestedAt));
}
