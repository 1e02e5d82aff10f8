import { sql } from 'drizzle-orm';
import { bigserial, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Staff's follow-up of a member (migration `0024_member_follow_up.sql`, decision 124). */

/** Internal notes on a member: staff-only; only the author edits or deletes one. */
export const memberNotes = pgTable('member_notes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: uuid('member_id').notNull(),
  authorId: uuid('author_id'),
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  editedAt: timestamp('edited_at', { withTimezone: true }),
});

/** The staff member in charge of a member (absent row: nobody). */
export const memberCounsellors = pgTable('member_counsellors', {
  memberId: uuid('member_id').primaryKey(),
  counsellorId: uuid('counsellor_id').notNull(),
  assignedAt: timestamp('assigned_at', { withTimezone: true }).notNull().default(sql`now()`),
});

/** Free labels on a member, as typed; one of each whatever the case (`tagKey`, migration 0044). */
export const memberTags = pgTable(
  'member_tags',
  {
    memberId: uuid('member_id').notNull(),
    tag: text('tag').notNull(),
    /** The tag in lower case (`tagKey` of machines/follow-up): unique per member, what matching compares. */
    tagKey: text('tag_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.tag] })],
);
