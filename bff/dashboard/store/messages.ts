// The bulk message's rows: the staff's message templates and the direct messages sent from them.
import { eq } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { directMessages, messageTemplates } from '#bff/db/messages-schema.ts';

/** The message template `id`, if any. */
export async function templateById(db: Db, id: number) {
  const [template] = await db.select().from(messageTemplates).where(eq(messageTemplates.id, id)).limit(1);
  return template;
}

/** A new direct message; its id. */
export async function insertDirectMessage(tx: Transaction, row: typeof directMessages.$inferInsert) {
  const [inserted] = await tx.insert(directMessages).values(row).returning({ id: directMessages.id });
  return inserted;
}

/** The outbox mail that notifies direct message `id`. */
export async function setDirectMessageMail(tx: Transaction, id: number, mailId: number | null) {
  await tx.update(directMessages).set({ mailId }).where(eq(directMessages.id, id));
}
