import { sql } from 'drizzle-orm';
import { bigserial, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** What a staff member read of a member's file (`access_log.resource`). */
export type AccessResource =
  | 'member_file'
  | 'signed_contract'
  | 'member_photo'
  | 'member_presentation'
  | 'termination_proof'
  | 'member_billing'
  | 'member_invoice'
  | 'member_follow_up'
  | 'member_messages'
  | 'member_candidates'
  | 'member_change_requests'
  | 'member_lists'
  | 'member_introductions'
  | 'member_list'
  | 'member_search'
  | 'member_export'
  | 'agency_billing'
  | 'agency_messages'
  | 'agency_introductions'
  | 'agency_agenda'
  | 'agency_leads'
  | 'access_journal';

/** Staff reads of members' files (migration `0009_access_log.sql`, decision 107). Append-only. */
export const accessLog = pgTable('access_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** Null for a read of an agency-wide list (decision 206). */
  memberId: uuid('member_id'),
  staffId: uuid('staff_id').notNull(),
  staffName: text('staff_name'),
  resource: text('resource').$type<AccessResource>().notNull(),
  /** What an agency-wide read asked (its filters), at most 500 characters. */
  detail: text('detail'),
  requestId: text('request_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
});
