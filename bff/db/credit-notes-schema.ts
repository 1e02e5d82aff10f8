import { bigint, bigserial, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { bytea } from '#bff/db/invoices-schema.ts';

/** Termination requests and credit notes (migration `0019_termination_and_credit_notes.sql`, decision 119). */

export const contractTerminations = pgTable('contract_terminations', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: uuid('member_id').notNull(),
  requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
  reason: text('reason').notNull(),
  explanation: text('explanation').notNull(),
  dueBy: timestamp('due_by', { withTimezone: true }).notNull(),
  decision: text('decision').$type<'accepted' | 'refused'>(),
  decidedAt: timestamp('decided_at', { withTimezone: true }),
  decidedBy: uuid('decided_by'),
  refusalReason: text('refusal_reason'),
  /** Online (the member's form) or by letter, recorded by staff (migration 0033, decision 189). */
  channel: text('channel').$type<'online' | 'letter'>().notNull().default('online'),
  recordedBy: uuid('recorded_by'),
  contractId: bigint('contract_id', { mode: 'number' }),
});

/** A request's proof, a file (migration `0033_termination_letter_and_proof.sql`, decision 189). */
export const contractTerminationProofs = pgTable('contract_termination_proofs', {
  terminationId: bigint('termination_id', { mode: 'number' }).primaryKey(),
  memberId: uuid('member_id').notNull(),
  mime: text('mime').$type<'application/pdf' | 'image/jpeg' | 'image/png'>().notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  sha256: text('sha256').notNull(),
  bytes: bytea('bytes').notNull(),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull(),
  uploadedBy: uuid('uploaded_by').notNull(),
});

export const creditNoteCounters = pgTable('credit_note_counters', {
  year: integer('year').primaryKey(),
  lastNumber: integer('last_number').notNull(),
});

export const creditNotes = pgTable('credit_notes', {
  number: text('number').primaryKey(),
  year: integer('year').notNull(),
  rank: integer('rank').notNull(),
  memberId: uuid('member_id').notNull(),
  refundId: bigint('refund_id', { mode: 'number' }).notNull(),
  /** The contract of the refund (set by the database from the refund, decision 175). */
  contractId: bigint('contract_id', { mode: 'number' }),
  invoiceNumber: text('invoice_number'),
  reason: text('reason').$type<'withdrawal' | 'termination' | 'outside_contract'>().notNull(),
  customerName: text('customer_name').notNull(),
  amountCents: integer('amount_cents').notNull(),
  currency: text('currency').notNull(),
  issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
  pdf: bytea('pdf').notNull(),
});
