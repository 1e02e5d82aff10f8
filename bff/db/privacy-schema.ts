import { sql } from 'drizzle-orm';
import { bigserial, boolean, customType, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ConsentKind } from '#machines/privacy/consent-texts.ts';

/**
 * Tables of members' data rights (migration `0006_privacy.sql`, decision 070). The two columns
 * 0006 adds to `members` (`matchmaking_paused_at`, `erased_at`) are declared here as well, as a
 * narrow view of that table, so that `schema.ts` stays as it is.
 */

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array | Buffer | string }>({
  dataType: () => 'bytea',
  fromDriver: (value) => {
    if (typeof value === 'string') return new Uint8Array(Buffer.from(value.replace(/^\\x/, ''), 'hex'));
    return new Uint8Array(value);
  },
  toDriver: (value) => Buffer.from(value),
});

const at = (name: string) => timestamp(name, { withTimezone: true });

export const consents = pgTable('consents', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  memberId: uuid('member_id'),
  anonymousId: uuid('anonymous_id'),
  kind: text('kind').$type<ConsentKind>().notNull(),
  version: text('version').notNull(),
  textHash: text('text_hash').notNull(),
  given: boolean('given').notNull(),
  createdAt: at('created_at').notNull().default(sql`now()`),
});

/** The privacy columns of `members` (the table itself is in `schema.ts`). */
export const memberPrivacy = pgTable('members', {
  id: uuid('id').primaryKey(),
  matchmakingPausedAt: at('matchmaking_paused_at'),
  erasedAt: at('erased_at'),
});

export const contractCopies = pgTable('contract_copies', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  memberId: uuid('member_id').notNull(),
  signedAt: at('signed_at').notNull(),
  sha256: text('sha256').notNull(),
  pdf: bytea('pdf').notNull(),
  createdAt: at('created_at').notNull().default(sql`now()`),
});

export const legalRecords = pgTable('legal_records', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  memberId: uuid('member_id').notNull(),
  kind: text('kind').$type<'contract' | 'payment'>().notNull(),
  legalBasis: text('legal_basis').notNull(),
  reference: text('reference'),
  details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  document: bytea('document'),
  occurredAt: at('occurred_at').notNull(),
  retainUntil: at('retain_until').notNull(),
  createdAt: at('created_at').notNull().default(sql`now()`),
});

export const erasureLog = pgTable('erasure_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: uuid('member_id').notNull(),
  requestedBy: text('requested_by').$type<'member' | 'staff' | 'retention'>().notNull(),
  summary: jsonb('summary').$type<Record<string, number>>().notNull(),
  createdAt: at('created_at').notNull().default(sql`now()`),
});
