import { bigint, bigserial, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Refunds owed after a withdrawal (migration `0018_contract_rights.sql`, decision 118). */
export const refunds = pgTable('refunds', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: uuid('member_id').notNull(),
  /** The contract whose money is refunded (decision 175); the database checks it is the charge's. */
  contractId: bigint('contract_id', { mode: 'number' }),
  /** The charge refunded: a checkout session `cs_…`, or an instalment's Stripe invoice `in_…`. */
  checkoutSessionId: text('checkout_session_id').notNull(),
  reason: text('reason').$type<RefundReason>().notNull(),
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

/** Why money goes back: a withdrawal, an accepted termination, or a charge for a stopped contract (decision 175). */
export type RefundReason = 'withdrawal' | 'termination' | 'outside_contract';
