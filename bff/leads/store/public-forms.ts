// What the public site's forms write: pre-registrations, contact messages, visitors' cookie choices.
import type { Transaction } from '#bff/db/database.ts';
import { contactMessages } from '#bff/db/leads-schema.ts';
import { consentRecords } from '#bff/db/public-schema.ts';
import { preSubscriptions } from '#bff/db/schema.ts';

/** A pre-registration's row; answers its id. */
export async function insertPreSubscription(tx: Transaction, row: typeof preSubscriptions.$inferInsert): Promise<{ id: string }[]> {
  return tx.insert(preSubscriptions).values(row).returning({ id: preSubscriptions.id });
}

/** A contact message, for the leads inbox. */
export async function insertContactMessage(tx: Transaction, row: typeof contactMessages.$inferInsert): Promise<void> {
  await tx.insert(contactMessages).values(row);
}

/** A visitor's cookie choice in detail; answers its id and date. */
export async function insertCookieChoice(
  tx: Transaction,
  row: typeof consentRecords.$inferInsert,
): Promise<{ id: string; createdAt: Date } | undefined> {
  const [inserted] = await tx.insert(consentRecords).values(row).returning({ id: consentRecords.id, createdAt: consentRecords.createdAt });
  return inserted;
}
