import { createHash } from 'node:crypto';
import { renderMemberContract } from '#bff/contract/member-contract.ts';
import type { Db, Transaction } from '#bff/db/database.ts';
import type { members } from '#bff/db/schema.ts';
import {
  insertContractCopy,
  latestContractCopy,
  latestContractRecord,
  replaceContractCopyPdf,
} from '#bff/privacy/store/contract-copies.ts';
import type { AgencyIdentity } from '#machines/public-site/agency-identity.ts';

type Executor = Db | Transaction;
type MemberRow = typeof members.$inferSelect;

/**
 * Renders the signed contract of a member as it stands at signature (`sub_date`), with the same
 * text and layout as `GET /api/v1/user/contract.pdf` (bff/contract), and stores it: the copy
 * handed over at conclusion (L224-90), downloadable again later by the member and by staff.
 */
export async function storeSignedContract(tx: Executor, row: MemberRow, options: { agency: AgencyIdentity; now: Date }): Promise<void> {
  const contract = await renderMemberContract(tx, row, options);
  if (!contract?.signedAt) return;
  const { pdf, signedAt } = contract;
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  await insertContractCopy(tx, { memberId: row.id, signedAt, sha256, pdf, createdAt: options.now });
}

/**
 * Replaces the copy stored at `sub_date` by the copy with its evidence page (decision 185), in the
 * signature's transaction, once its evidence record is written: the stored, downloaded and mailed
 * copy is that one.
 */
export async function replaceSignedContract(tx: Executor, memberId: string, signedAt: Date, pdf: Uint8Array): Promise<string> {
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  const replaced = await replaceContractCopyPdf(tx, memberId, signedAt, { pdf, sha256 });
  if (replaced.length !== 1) throw new Error(`contract copy of the signature of ${signedAt.toISOString()} not found`);
  return sha256;
}

/** The latest signed copy of a member's contract: the stored copy, or after erasure the legal record. */
export async function signedContractOf(
  db: Executor,
  memberId: string,
): Promise<{ pdf: Uint8Array; signedAt: Date; sha256: string } | null> {
  const copy = await latestContractCopy(db, memberId);
  if (copy) return copy;
  const legal = await latestContractRecord(db, memberId);
  if (legal?.pdf) return { pdf: legal.pdf, signedAt: legal.signedAt, sha256: legal.sha256 ?? '' };
  return null;
}
