import { bigserial, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** One row per signed contract, the key of its ledger (migration `0031_contract_ledger.sql`, decision 175). */
export const contracts = pgTable('contracts', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: uuid('member_id').notNull(),
  signedAt: timestamp('signed_at', { withTimezone: true }).notNull(),
  planId: text('plan_id'),
  endsAt: timestamp('ends_at', { withTimezone: true }),
  stoppedAt: timestamp('stopped_at', { withTimezone: true }),
  stopReason: text('stop_reason').$type<ContractStopReason>(),
  subscriptionCancelledAt: timestamp('subscription_cancelled_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

export type ContractStopReason = 'renunciation' | 'withdrawal' | 'termination' | 'term';
