// The proofs of termination requests (`contract_termination_proofs`, decision 189) and the requests they belong to.
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { contractTerminationProofs, contractTerminations } from '#bff/db/credit-notes-schema.ts';

/** A request's proof, written or replaced. */
export async function upsertProof(tx: Transaction | Db, values: typeof contractTerminationProofs.$inferInsert): Promise<void> {
  const { terminationId: _id, ...changes } = values;
  await tx
    .insert(contractTerminationProofs)
    .values(values)
    .onConflictDoUpdate({ target: contractTerminationProofs.terminationId, set: changes });
}

/** The member's latest request waiting for a decision: its id and reason, if any. */
export async function pendingTerminationIdOf(tx: Transaction | Db, memberId: string): Promise<{ id: number; reason: string } | undefined> {
  const [row] = await tx
    .select({ id: contractTerminations.id, reason: contractTerminations.reason })
    .from(contractTerminations)
    .where(and(eq(contractTerminations.memberId, memberId), isNull(contractTerminations.decision)))
    .orderBy(desc(contractTerminations.requestedAt))
    .limit(1);
  return row;
}

/** One request by id if it is this member's. */
export async function terminationRowOfMember(db: Db | Transaction, memberId: string, terminationId: number) {
  const [row] = await db
    .select()
    .from(contractTerminations)
    .where(and(eq(contractTerminations.id, terminationId), eq(contractTerminations.memberId, memberId)))
    .limit(1);
  return row;
}

/** A proof's type, bytes and digest if it is this member's. */
export async function proofBytesRow(db: Db, memberId: string, terminationId: number) {
  const [row] = await db
    .select({ mime: contractTerminationProofs.mime, bytes: contractTerminationProofs.bytes, sha256: contractTerminationProofs.sha256 })
    .from(contractTerminationProofs)
    .where(and(eq(contractTerminationProofs.terminationId, terminationId), eq(contractTerminationProofs.memberId, memberId)))
    .limit(1);
  return row;
}

/** The metadata of the member's proofs (no bytes). */
export function proofRowsOf(db: Db | Transaction | Pick<Transaction, 'select'>, memberId: string) {
  return db
    .select({
      terminationId: contractTerminationProofs.terminationId,
      mime: contractTerminationProofs.mime,
      sizeBytes: contractTerminationProofs.sizeBytes,
      uploadedAt: contractTerminationProofs.uploadedAt,
    })
    .from(contractTerminationProofs)
    .where(eq(contractTerminationProofs.memberId, memberId));
}
