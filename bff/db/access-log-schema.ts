import { sql } from 'drizzle-orm';
import { bigserial, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** What a staff member read of a member's file (`access_log.resource`). */
export type AccessResource = 'member_file' | 'signed_contract' | 'member_photo' | 'member_presentation' | 'termination_proof';

/** Staff reads of members' files (migration `0009_access_log.sql`, decision 107). Append-only. */
export const accessLog = pgTable('access_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: uuid('member_id').notNull(),
  staffId: uuid('staff_id').notNull(),
  staffName: text('staff_name'),
  resource: text('resource').$type<AccessResource>().notNull(),
  requestId: text('request_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
});
