// What the Stripe Billing stand-in reads of the subscriptions: who has an instalment due, and its known invoice.
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { instalments } from '#bff/db/instalments-schema.ts';
import { checkoutSessions } from '#bff/db/schema.ts';

/**
 * The subscribers (or only `memberId`) with an instalment due at `now` and not cancelled, by the
 * stored expected lines and their due date (decision 213): never every subscriber.
 */
export async function ownersWithInstalmentDue(db: Db, now: Date, memberId?: string) {
  const at = sql`${now.toISOString()}::timestamptz`;
  const due = sql`EXISTS (SELECT 1 FROM expected_instalments x WHERE x.member_id = ${checkoutSessions.memberId}
    AND x.due_at <= ${at} AND x.status IN ('a-venir', 'echouee') AND (x.ends_at IS NULL OR x.ends_at > ${at}))`;
  const where = memberId
    ? and(isNotNull(checkoutSessions.subscriptionId), eq(checkoutSessions.memberId, memberId), due)
    : and(isNotNull(checkoutSessions.subscriptionId), isNotNull(checkoutSessions.memberId), due);
  return db
    .selectDistinct({ memberId: checkoutSessions.memberId, email: checkoutSessions.customerEmail })
    .from(checkoutSessions)
    .where(where);
}

/** The Stripe invoice id an earlier attempt gave instalment `number` of the subscription, if any. */
export async function knownInstalmentInvoiceId(db: Db, subscriptionId: string, number: number): Promise<string | undefined> {
  const [known] = await db
    .select({ invoiceId: instalments.providerInvoiceId })
    .from(instalments)
    .where(and(eq(instalments.subscriptionId, subscriptionId), eq(instalments.number, number)))
    .limit(1);
  return known?.invoiceId;
}
