import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** The member's short presentation (migration `0027_presentation_and_booking_kind.sql`, decision 128). */
export const memberPresentations = pgTable('member_presentations', {
  memberId: uuid('member_id').primaryKey(),
  body: text('body').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});
