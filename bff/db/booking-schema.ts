import { sql } from 'drizzle-orm';
import type { BookingKind } from '#machines/agenda/booking-kind.ts';
import { boolean, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Tables of booking (migration `0004_booking.sql`); see `tests/integration/booking.test.ts`. */

/** Invitees reported by signed Calendly webhooks (or the embedded scheduling stand-in). */
export const bookings = pgTable('bookings', {
  inviteeUri: text('invitee_uri').primaryKey(),
  memberId: uuid('member_id'),
  eventUri: text('event_uri').notNull(),
  startTime: timestamp('start_time', { withTimezone: true }).notNull(),
  endTime: timestamp('end_time', { withTimezone: true }).notNull(),
  status: text('status').$type<'active' | 'canceled'>().notNull(),
  inviteeEmail: text('invitee_email'),
  inviteeName: text('invitee_name'),
  cancelUrl: text('cancel_url'),
  rescheduleUrl: text('reschedule_url'),
  rescheduled: boolean('rescheduled').notNull().default(false),
  /** Which meeting it is, decided when first recorded (machines/agenda/booking-kind.ts, migration 0027). */
  kind: text('kind').$type<BookingKind>(),
  bookedAt: timestamp('booked_at', { withTimezone: true }),
  canceledAt: timestamp('canceled_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});
