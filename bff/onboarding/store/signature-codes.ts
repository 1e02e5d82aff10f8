// The contract's signing codes (`contract_signature_codes`, hashed, one per member) and its evidence records (`contract_signatures`).
import { eq, sql } from 'drizzle-orm';
import { bigserial, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Db, Transaction } from '#bff/db/database.ts';

export const contractSignatureCodes = pgTable('contract_signature_codes', {
  memberId: uuid('member_id').primaryKey(),
  codeHash: text('code_hash').notNull(),
  documentSha256: text('document_sha256').notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  attempts: smallint('attempts').notNull().default(0),
});

export const contractSignatures = pgTable('contract_signatures', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: uuid('member_id').notNull(),
  documentSha256: text('document_sha256').notNull(),
  signedAt: timestamp('signed_at', { withTimezone: true }).notNull(),
  clientAddress: text('client_address').notNull(),
  userAgent: text('user_agent').notNull(),
  method: text('method').notNull(),
  codeSentAt: timestamp('code_sent_at', { withTimezone: true }).notNull(),
  codeVerifiedAt: timestamp('code_verified_at', { withTimezone: true }).notNull(),
  codeAttempts: smallint('code_attempts').notNull(),
});

type SignatureCodeRow = typeof contractSignatureCodes.$inferSelect;

/** The member's code, if any. */
export async function signatureCodeOf(db: Db, memberId: string): Promise<SignatureCodeRow | undefined> {
  const [code] = await db.select().from(contractSignatureCodes).where(eq(contractSignatureCodes.memberId, memberId)).limit(1);
  return code;
}

/** The member's code, written or replaced. */
export async function upsertSignatureCode(tx: Transaction, memberId: string, values: Omit<SignatureCodeRow, 'memberId'>): Promise<void> {
  await tx
    .insert(contractSignatureCodes)
    .values({ memberId, ...values })
    .onConflictDoUpdate({ target: contractSignatureCodes.memberId, set: values });
}

/** Counts one more try of the member's code; the code as stored then, if any. */
export async function countSignatureCodeTry(tx: Transaction, memberId: string): Promise<SignatureCodeRow | undefined> {
  const [stored] = await tx
    .update(contractSignatureCodes)
    .set({ attempts: sql`${contractSignatureCodes.attempts} + 1` })
    .where(eq(contractSignatureCodes.memberId, memberId))
    .returning();
  return stored;
}

/** Deletes the member's code. */
export async function deleteSignatureCode(db: Db | Transaction, memberId: string): Promise<void> {
  await db.delete(contractSignatureCodes).where(eq(contractSignatureCodes.memberId, memberId));
}

/** A signature's evidence record, as stored. */
export async function insertSignature(tx: Transaction, row: typeof contractSignatures.$inferInsert) {
  const [recorded] = await tx.insert(contractSignatures).values(row).returning();
  return recorded;
}
