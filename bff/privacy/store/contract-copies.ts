// The stored copies of signed contracts (`contract_copies`) and, after an erasure, their legal records.
import { and, desc, eq } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { contractCopies, legalRecords } from '#bff/db/privacy-schema.ts';

type Executor = Db | Transaction;

/** Keeps a signed copy. */
export async function insertContractCopy(tx: Executor, row: typeof contractCopies.$inferInsert): Promise<void> {
  await tx.insert(contractCopies).values(row);
}

/** Replaces the PDF of the copy signed at `signedAt`; answers the ids of the copies replaced. */
export function replaceContractCopyPdf(tx: Executor, memberId: string, signedAt: Date, copy: { pdf: Uint8Array; sha256: string }) {
  return tx
    .update(contractCopies)
    .set(copy)
    .where(and(eq(contractCopies.memberId, memberId), eq(contractCopies.signedAt, signedAt)))
    .returning({ id: contractCopies.id });
}

/** The latest stored copy of the member's contract, if any. */
export async function latestContractCopy(db: Executor, memberId: string) {
  const [copy] = await db
    .select({ pdf: contractCopies.pdf, signedAt: contractCopies.signedAt, sha256: contractCopies.sha256 })
    .from(contractCopies)
    .where(eq(contractCopies.memberId, memberId))
    .orderBy(desc(contractCopies.signedAt))
    .limit(1);
  return copy;
}

/** The latest contract kept in the legal records (after an erasure), if any. */
export async function latestContractRecord(db: Executor, memberId: string) {
  const [legal] = await db
    .select({ pdf: legalRecords.document, signedAt: legalRecords.occurredAt, sha256: legalRecords.reference })
    .from(legalRecords)
    .where(and(eq(legalRecords.memberId, memberId), eq(legalRecords.kind, 'contract')))
    .orderBy(desc(legalRecords.occurredAt))
    .limit(1);
  return legal;
}
