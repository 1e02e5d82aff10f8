// Refunds as the member's progress page reads them from `refunds`: what a contract gave back.
import { and, eq, ne, sum } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { refunds } from '#bff/db/refunds-schema.ts';

/** The sum of the contract's refunds that did not fail, in cents (0 when none). */
export async function refundedCentsOf(db: Db, contractId: number): Promise<number> {
  const [row] = await db
    .select({ cents: sum(refunds.amountCents).mapWith(Number) })
    .from(refunds)
    .where(and(eq(refunds.contractId, contractId), ne(refunds.status, 'failed')));
  return row?.cents ?? 0;
}
