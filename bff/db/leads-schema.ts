import { sql } from 'drizzle-orm';
import { bigint, bigserial, date, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Tables of the leads inbox (migration `0013_leads.sql`, decision 112); see `tests/integration/leads.test.ts`. */

/** A message sent through the site's contact form: stored, and mailed to the agency. */
export const contactMessages = pgTable('contact_messages', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  name: text('name').notNull(),
  email: text('email').notNull(),
  subject: text('subject').notNull(),
  message: text('message').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
});

/** Staff's follow-up of one lead (a pre-registration or a contact message), keyed by its id. */
export const leadFollowUps = pgTable('lead_follow_ups', {
  leadId: uuid('lead_id').primaryKey(),
  kind: text('kind').notNull(),
  status: text('status').notNull().default('nouveau'),
  assigneeId: uuid('assignee_id'),
  followUpOn: date('follow_up_on', { mode: 'string' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});

/** Staff's notes on a lead: append-only. */
export const leadNotes = pgTable('lead_notes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  leadId: uuid('lead_id').notNull(),
  authorId: uuid('author_id'),
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
});

/** Every change staff make to a lead (who, when, what). */
export const leadEvents = pgTable('lead_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  leadId: uuid('lead_id').notNull(),
  actorId: uuid('actor_id'),
  field: text('field').notNull(),
  fromValue: text('from_value'),
  toValue: text('to_value'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
});

/** An answer staff mailed to a lead (migration 0051, decision 211); its mail's status is in the outbox. */
export const leadAnswers = pgTable('lead_answers', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  leadId: uuid('lead_id').notNull(),
  authorId: uuid('author_id'),
  templateId: bigint('template_id', { mode: 'number' }),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  mailId: bigint('mail_id', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
});
