// The member's consents (`consents`) as an edit of step 1 reads them: the latest about sensitive data.
import { and, desc, eq } from 'drizzle-orm';
import type { Transaction } from '#bff/db/database.ts';
import { consents } from '#bff/db/privacy-schema.ts';

/** Whether the member's latest consent about sensitive data was given, if any was recorded. */
export async function latestSensitiveConsent(tx: Transaction, memberId: string): Promise<{ given: boolean } | undefined> {
  const [latest] = await tx
    .select({ given: consents.given })
    .from(consents)
    .where(and(eq(consents.memberId, memberId), eq(consents.kind, 'sensitive_data')))
    .orderBy(desc(consents.createdAt), desc(consents.id))
    .limit(1);
  return latest;
}
