import { sql } from 'drizzle-orm';
import { bigint, bigserial, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Tables of direct messages (migrations `0005_messages.sql`, `0021_two_way_messages.sql`);
 * see `tests/integration/dashboard.test.ts` and `tests/integration/messages.test.ts`.
 */

/** A message between one member and the agency, shown in the member's space and the dashboard; only a notice is mailed. */
export const directMessages = pgTable('direct_messages', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: uuid('member_id').notNull(),
  /** Staff for `to_member`, the member for `to_agency`. */
  authorId: uuid('author_id'),
  direction: text('direction', { enum: ['to_member', 'to_agency'] })
    .notNull()
    .default('to_member'),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  mailId: bigint('mail_id', { mode: 'number' }),
  memberReadAt: timestamp('member_read_at', { withTimezone: true }),
  staffReadAt: timestamp('staff_read_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
});

/** A reusable message staff pick when writing (placeholders filled from the member's data). */
export const messageTemplates = pgTable('message_templates', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  title: text('title').notNull(),
  subject: text('subject').notNull().default(''),
  body: text('body').notNull(),
  /** `membre` (the message form) or `prospect` (the answer to a lead, migration 0051). */
  kind: text('kind', { enum: ['membre', 'prospect'] })
    .notNull()
    .default('membre'),
  authorId: uuid('author_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});
