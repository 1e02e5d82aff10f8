// The demo agency's life written as the routes and webhooks write it: checkout sessions, contact messages and their follow-ups, direct messages.
import type { Db, Transaction } from '#bff/db/database.ts';
import { contactMessages, leadFollowUps } from '#bff/db/leads-schema.ts';
import { directMessages } from '#bff/db/messages-schema.ts';
import { checkoutSessions } from '#bff/db/schema.ts';

export async function insertCheckoutSession(tx: Transaction, row: typeof checkoutSessions.$inferInsert): Promise<void> {
  await tx.insert(checkoutSessions).values(row);
}

/** Inserts a contact message and returns its id (undefined if nothing came back). */
export async function insertContactMessage(
  db: Db,
  row: typeof contactMessages.$inferInsert,
): Promise<(typeof contactMessages.$inferSelect)['id'] | undefined> {
  const [inserted] = await db.insert(contactMessages).values(row).returning({ id: contactMessages.id });
  return inserted?.id;
}

export async function insertLeadFollowUp(db: Db, row: typeof leadFollowUps.$inferInsert): Promise<void> {
  await db.insert(leadFollowUps).values(row);
}

export async function insertDirectMessages(db: Db, rows: (typeof directMessages.$inferInsert)[]): Promise<void> {
  await db.insert(directMessages).values(rows);
}
