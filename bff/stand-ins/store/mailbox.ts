// The embedded mail stand-in's inbox (the `mailbox` table), as its page reads it.
import { desc, eq } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { mailbox } from '#bff/db/schema.ts';

/** The latest mails received, newest first. */
export async function latestMails(db: Db, limit: number) {
  return db.select().from(mailbox).orderBy(desc(mailbox.id)).limit(limit);
}

/** One mail's attachments, undefined for an unknown mail. */
export async function mailAttachments(db: Db, id: number) {
  const [row] = await db.select({ attachments: mailbox.attachments }).from(mailbox).where(eq(mailbox.id, id)).limit(1);
  return row?.attachments;
}
