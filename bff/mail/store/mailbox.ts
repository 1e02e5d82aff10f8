// The local mailbox: the messages the embedded SMTP server received.
import type { Db } from '#bff/db/database.ts';
import { mailbox } from '#bff/db/schema.ts';

export async function insertMailboxMessage(db: Db, row: typeof mailbox.$inferInsert): Promise<void> {
  await db.insert(mailbox).values(row);
}
