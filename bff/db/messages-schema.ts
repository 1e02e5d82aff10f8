import { sql } from 'drizzle-orm';
import { bigint, bigserial, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Tables of direct messages (migration `0005_messages.sql`); see `tests/integration/dashboard.test.ts`. */

/** A message written by staff to one member: e-mailed (outbox) and shown in the member's space. */
export const directMessages = pgTable('direct_messages', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: uuid('member_id').notNull(),
  authorId: uuid('author_id'),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  mailId: bigint('mail_id', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
});
