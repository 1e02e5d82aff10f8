import { sql } from 'drizzle-orm';
import { bigserial, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Tables of introductions (migration `0015_introductions.sql`, issue 22); written by bff/introductions/introductions.ts only. */

/** One row per pair of members: the introduction chart's state, context and optimistic version. */
export const introductions = pgTable('introductions', {
  id: uuid('id').primaryKey(),
  memberA: uuid('member_a').notNull(),
  memberB: uuid('member_b').notNull(),
  state: text('state').notNull(),
  context: jsonb('context').notNull(),
  version: integer('version').notNull(),
  proposedAt: timestamp('proposed_at', { withTimezone: true }).notNull(),
  deadlineAt: timestamp('deadline_at', { withTimezone: true }).notNull(),
  createdBy: uuid('created_by'),
  noteA: text('note_a'),
  noteB: text('note_b'),
  /** Each side's choice for this introduction (migration 0038, decision 196): `moi`, `wali`, or null (the settings' choice). */
  contactViaA: text('contact_via_a'),
  contactViaB: text('contact_via_b'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});

/** Append-only log of every accepted introduction event (a trigger refuses UPDATE). */
export const introductionEvents = pgTable('introduction_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  introductionId: uuid('introduction_id').notNull(),
  event: text('event').notNull(),
  actorId: uuid('actor_id'),
  actorRole: text('actor_role').notNull(),
  /** The member's side for a member's event; null for staff's and the clock's. */
  side: text('side').$type<'a' | 'b'>(),
  fromState: text('from_state'),
  toState: text('to_state').notNull(),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  version: integer('version').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
});

export type IntroductionRow = typeof introductions.$inferSelect;
