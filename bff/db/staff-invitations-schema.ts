import type { StaffRole } from '#machines/staff/roles.ts';
import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Invitations of colleagues to the dashboard (migration `0025_staff_invitations.sql`, decision 126). */
export const staffInvitations = pgTable('staff_invitations', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  email: text('email').notNull(),
  name: text('name').notNull(),
  /** The role the colleague will have (decision 206). */
  staffRole: text('staff_role').$type<StaffRole>().notNull().default('conseil'),
  authUserId: uuid('auth_user_id').notNull(),
  /** SHA-256 (hex) of the link's secret; the secret itself is only in the mail. */
  tokenDigest: text('token_digest').notNull(),
  invitedBy: uuid('invited_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull().default(sql`now()`),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  revokedBy: uuid('revoked_by'),
});
