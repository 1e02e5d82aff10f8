import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Where staff stand on the member's presentation (migration `0041_presentation_review.sql`, decision 200). */
export type PresentationStatus = 'en-attente' | 'approuvee' | 'refusee';

/**
 * The member's short presentation (migration `0027_presentation_and_booking_kind.sql`, decision
 * 128), reviewed by staff (0041, decision 200): `body` is what the member last wrote,
 * `approvedBody` the last version staff approved — the only one another member reads.
 */
export const memberPresentations = pgTable('member_presentations', {
  memberId: uuid('member_id').primaryKey(),
  body: text('body').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  status: text('status').$type<PresentationStatus>().notNull().default('en-attente'),
  approvedBody: text('approved_body'),
  reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  reviewedBy: uuid('reviewed_by'),
  refusal: text('refusal'),
});
