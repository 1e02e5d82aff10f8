import { sql } from 'drizzle-orm';
import { bigint, customType, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Tables of invoices (migration `0011_invoices.sql`, decision 110). */

export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array | Buffer | string }>({
  dataType: () => 'bytea',
  fromDriver: (value) => {
    if (typeof value === 'string') return new Uint8Array(Buffer.from(value.replace(/^\\x/, ''), 'hex'));
    return new Uint8Array(value);
  },
  toDriver: (value) => Buffer.from(value),
});

export interface InvoiceLine {
  label: string;
  amountCents: number;
}

export const invoiceCounters = pgTable('invoice_counters', {
  year: integer('year').primaryKey(),
  lastNumber: integer('last_number').notNull(),
});

export const invoices = pgTable('invoices', {
  number: text('number').primaryKey(),
  year: integer('year').notNull(),
  rank: integer('rank').notNull(),
  memberId: uuid('member_id').notNull(),
  checkoutSessionId: text('checkout_session_id').notNull(),
  /** The contract the payment belongs to (decision 175). */
  contractId: bigint('contract_id', { mode: 'number' }),
  offerId: text('offer_id').notNull(),
  customerName: text('customer_name').notNull(),
  lines: jsonb('lines').$type<InvoiceLine[]>().notNull(),
  subtotalCents: integer('subtotal_cents').notNull(),
  discountCents: integer('discount_cents').notNull(),
  totalCents: integer('total_cents').notNull(),
  currency: text('currency').notNull(),
  paymentMethod: text('payment_method').notNull(),
  paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
  pdf: bytea('pdf').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
});
