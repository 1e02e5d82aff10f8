import { bigserial, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Refunds owed after a withdrawal (migration `0018_contract_rights.sql`, decision 118). */
export const refunds = pgTable('refunds', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: uuid('member_id').notNull(),
  checkoutSessionId: text('checkout_session_id').notNull(),
  reason: text('reason').$type<'withdrawal' | 'termination'>().notNull(),
  amountCents: integer('amount_cents').notNull(),
  currency: text('currency').notNull(),
  paidCents: integer('paid_cents').notNull(),
  keptCents: integer('kept_cents').notNull(),
  requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
  dueBy: timestamp('due_by', { withTimezone: true }).notNull(),
  status: text('status').$type<'pending' | 'succeeded' | 'failed'>().notNull(),
  provider: text('provider').$type<'stripe' | 'stand-in'>(),
  providerRefundId: text('provider_refund_id'),
  attempts: integer('attempts').notNull(),
  lastError: text('last_error'),
  completedAt: timestamp('completed_at', { withTimezone: true }),
});
