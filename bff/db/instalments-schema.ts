import { bigint, bigserial, boolean, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Instalments 2…N of a monthly plan (migration `0020_instalments.sql`, decision 120). */
export const instalments = pgTable('instalments', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: uuid('member_id').notNull(),
  /** The contract of the subscription (decision 175). */
  contractId: bigint('contract_id', { mode: 'number' }),
  subscriptionId: text('subscription_id').notNull(),
  providerInvoiceId: text('provider_invoice_id').notNull(),
  offerId: text('offer_id').notNull(),
  number: integer('number').notNull(),
  amountCents: integer('amount_cents').notNull(),
  currency: text('currency').notNull(),
  status: text('status').$type<'paid' | 'failed'>().notNull(),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  failedAt: timestamp('failed_at', { withTimezone: true }),
  failures: integer('failures').notNull(),
  outsideContract: boolean('outside_contract').notNull(),
  invoiceNumber: text('invoice_number'),
  livemode: boolean('livemode').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
