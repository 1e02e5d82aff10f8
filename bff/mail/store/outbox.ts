// The mail outbox's rows: queuing a mail, and the dispatcher's claim and outcome of each one.
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { mailOutbox } from '#bff/db/schema.ts';

/** What a queued mail stores (its status, attempts and timestamps are the table's defaults). */
export type OutboxMailRow = Pick<
  typeof mailOutbox.$inferInsert,
  'toAddress' | 'subject' | 'textBody' | 'htmlBody' | 'replyTo' | 'kind' | 'attachments'
>;

/** Inserts a mail into the outbox: its id, or undefined when the insert returned nothing. */
export async function insertOutboxMail(executor: Pick<Db, 'insert'>, row: OutboxMailRow): Promise<number | undefined> {
  const [inserted] = await executor.insert(mailOutbox).values(row).returning({ id: mailOutbox.id });
  return inserted?.id;
}

/** Inserts a mail unless one with `dedupeKey` is there (a unique column, migration 0012): its id, or null. */
export async function insertOutboxMailOnce(executor: Pick<Db, 'insert'>, row: OutboxMailRow, dedupeKey: string): Promise<number | null> {
  const rows = await executor
    .insert(mailOutbox)
    .values({ ...row, dedupeKey })
    .onConflictDoNothing({ target: mailOutbox.dedupeKey })
    .returning({ id: mailOutbox.id });
  return rows[0]?.id ?? null;
}

/** The de-duplication keys among `keys` already in the outbox. */
export async function queuedDedupeKeys(db: Db, keys: string[]): Promise<(string | null)[]> {
  return (await db.select({ key: mailOutbox.dedupeKey }).from(mailOutbox).where(inArray(mailOutbox.dedupeKey, keys))).map((r) => r.key);
}

type ClaimedMail = {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  reply_to: string | null;
  attachments: NonNullable<typeof mailOutbox.$inferSelect.attachments> | null;
  attempts: number;
  kind: string;
  dedupe_key: string | null;
};

/**
 * Claims the oldest sendable mail until `claimedUntil` (`SKIP LOCKED`: instances never claim the
 * same row): a pending one, or one whose lease expired before `now`, tried fewer than `maxAttempts` times.
 */
export async function claimNextMail(
  db: Db,
  input: { now: Date; claimedUntil: Date; maxAttempts: number },
): Promise<ClaimedMail | undefined> {
  const { now, maxAttempts } = input;
  const claimed = await db.execute<ClaimedMail>(sql`
      UPDATE mail_outbox SET status = 'sending', attempts = attempts + 1, claimed_until = ${input.claimedUntil}
      WHERE id = (
        SELECT id FROM mail_outbox
        WHERE attempts < ${maxAttempts}
          AND (status = 'pending' OR (status = 'sending' AND claimed_until < ${now}))
        ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
      )
      RETURNING id, to_address, subject, text_body, html_body, reply_to, attachments, attempts, kind, dedupe_key`);
  return (claimed as unknown as { rows: ClaimedMail[] }).rows[0];
}

/** A claimed mail not sent because it no longer applies: `dropped`, with its reason, its key freed. */
export async function markMailDropped(db: Db, id: number, reason: string): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: 'dropped', claimedUntil: null, lastError: reason, dedupeKey: null })
    .where(eq(mailOutbox.id, id));
}

export async function markMailSent(db: Db, id: number, sentAt: Date): Promise<void> {
  await db.update(mailOutbox).set({ status: 'sent', sentAt, claimedUntil: null }).where(eq(mailOutbox.id, id));
}

/** A failed attempt: back to `pending` (or `failed` for good), the lease released, the error kept. */
export async function markMailFailed(db: Db, id: number, input: { status: 'pending' | 'failed'; lastError: string }): Promise<void> {
  await db.update(mailOutbox).set({ status: input.status, claimedUntil: null, lastError: input.lastError }).where(eq(mailOutbox.id, id));
}
