import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** The member's guardian (migration `0017_guardian.sql`, decision 117); written by bff/introductions/guardian.ts only. */
export const memberGuardians = pgTable('member_guardians', {
  memberId: uuid('member_id').primaryKey(),
  name: text('name').notNull(),
  relation: text('relation').notNull(),
  email: text('email'),
  phone: text('phone'),
  receives: text('receives').notNull(),
  /** How the other member reaches this one (migration 0038, decision 196): `moi` or `wali` (through the walī only). */
  contactVia: text('contact_via').notNull().default('moi'),
  informedAt: timestamp('informed_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});
export type GuardianRow = typeof memberGuardians.$inferSelect;
