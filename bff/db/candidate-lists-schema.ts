import { sql } from 'drizzle-orm';
import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Staff's shortlist of candidates for a member (migration `0042_shortlist_and_never_propose.sql`, decision 201). */
export const memberShortlists = pgTable(
  'member_shortlists',
  {
    memberId: uuid('member_id').notNull(),
    candidateId: uuid('candidate_id').notNull(),
    addedBy: uuid('added_by'),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.candidateId] })],
);

/** Pairs never to propose, with staff's reason (decision 201); `memberLow < memberHigh`. */
export const neverProposePairs = pgTable(
  'never_propose_pairs',
  {
    memberLow: uuid('member_low').notNull(),
    memberHigh: uuid('member_high').notNull(),
    reason: text('reason').notNull(),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.memberLow, t.memberHigh] })],
);
