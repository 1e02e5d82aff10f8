import { sql } from 'drizzle-orm';
import type { StaffRole } from '#machines/staff/roles.ts';
import { bigint, bigserial, boolean, integer, jsonb, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The product's tables (the embedded auth service keeps its own, in `bff/stand-ins/auth-service/`).
 * The SQL in `bff/db/migrations/` is the source of truth; `schema.test.ts` checks that every
 * table and column declared here exists in the migrated database.
 */

/** One row per member: the onboarding record of `machines/onboarding` plus bookkeeping. */
export const members = pgTable('members', {
  id: uuid('id').primaryKey(),
  email: text('email').notNull(),
  gender: text('gender').notNull(),
  role: text('role').notNull().default('member'),
  /** A staff account's role (decision 206): `administration` or `conseil`; null for a member. */
  staffRole: text('staff_role').$type<StaffRole>(),
  /** The onboarding record (`machines/onboarding` OnboardingRecord), validated on read and write. */
  onboarding: jsonb('onboarding').notNull(),
  profile: jsonb('profile'),
  questionnaire: jsonb('questionnaire'),
  contract: jsonb('contract'),
  disabled: boolean('disabled').notNull().default(false),
  /** Optimistic concurrency: every write increments it and checks the value it read. */
  version: integer('version').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  /**
   * The stage, written with every change of `onboarding` (machines/onboarding/stored-stage.ts,
   * migration 0045): NULL until written, or when the record changed without it (a trigger clears it).
   */
  stage: text('stage'),
  stageSub: text('stage_sub'),
  renunciationEndsAt: timestamp('renunciation_ends_at', { withTimezone: true }),
  withdrawalEndsAt: timestamp('withdrawal_ends_at', { withTimezone: true }),
  termEndsAt: timestamp('term_ends_at', { withTimezone: true }),
  /** The `version` the stage was written at. */
  stageVersion: integer('stage_version'),
});

/** Append-only log of every accepted onboarding event (a trigger refuses UPDATE and DELETE). */
export const onboardingEvents = pgTable('onboarding_events', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: uuid('member_id').notNull(),
  context: text('context').notNull(),
  event: text('event').notNull(),
  payload: jsonb('payload').notNull(),
  fromState: text('from_state').notNull(),
  toState: text('to_state').notNull(),
  actorId: uuid('actor_id'),
  actorRole: text('actor_role').notNull(),
  version: integer('version').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
});

export const preSubscriptions = pgTable('pre_subscriptions', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  gender: text('gender').notNull(),
  email: text('email').notNull(),
  age: smallint('age').notNull(),
  zipCode: text('zip_code').notNull(),
  city: text('city').notNull(),
  consentVersion: text('consent_version').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  /** SHA-256 (hex) of the sign-up link's token mailed to the visitor; null once spent (migration 0026, decision 127). */
  signupTokenHash: text('signup_token_hash'),
  signupTokenExpiresAt: timestamp('signup_token_expires_at', { withTimezone: true }),
  /** The member account created with the link, if any. */
  memberId: uuid('member_id'),
  convertedAt: timestamp('converted_at', { withTimezone: true }),
});

/** Transactional outbox: a mail is written in the same transaction as what caused it. */
export const mailOutbox = pgTable('mail_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  textBody: text('text_body').notNull(),
  htmlBody: text('html_body'),
  /** Where the recipient's answer goes, when not to the sender (migration 0051): the agency. */
  replyTo: text('reply_to'),
  kind: text('kind').notNull(),
  /** `[{ filename, contentType, contentBase64 }]` (bff/mail/outbox.ts), or null without any. */
  attachments: jsonb('attachments').$type<{ filename: string; contentType: string; contentBase64: string }[]>(),
  /** One agency mail per (member, kind, occurrence), unique (migration 0012, decision 111); null for other mails. */
  dedupeKey: text('dedupe_key'),
  /** `pending`, `sending`, `sent`, `failed`, or `dropped`: no longer applying when it was to be sent (decision 191, migration 0034). */
  status: text('status').notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  /** The last sending error, or why a dropped mail was not sent. */
  lastError: text('last_error'),
  claimedUntil: timestamp('claimed_until', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  sentAt: timestamp('sent_at', { withTimezone: true }),
});

/** Mails received by the embedded SMTP stand-in: what the local mailbox page shows. */
export const mailbox = pgTable('mailbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  fromAddress: text('from_address').notNull(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  textBody: text('text_body').notNull(),
  htmlBody: text('html_body'),
  raw: text('raw').notNull(),
  /** What the mail carried as attachments, as received (bff/mail/embedded-smtp.ts). */
  attachments: jsonb('attachments')
    .$type<{ filename: string; contentType: string; size: number; sha256: string; contentBase64: string }[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().default(sql`now()`),
});

/** Key/value settings staff can change (e.g. which pay-in-full plans are active). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});

/** Rate-limit buckets (rate-limiter-flexible's Drizzle store), shared across instances. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: timestamp('expire', { withTimezone: true }),
});

/** Checkout sessions recorded from signed Stripe webhooks: the only proof of payment the server accepts. */
export const checkoutSessions = pgTable('checkout_sessions', {
  id: text('id').primaryKey(),
  memberId: uuid('member_id'),
  offerId: text('offer_id'),
  paymentLink: text('payment_link'),
  amountTotal: integer('amount_total'),
  currency: text('currency'),
  status: text('status').notNull(),
  paymentStatus: text('payment_status').notNull(),
  customerEmail: text('customer_email'),
  livemode: boolean('livemode').notNull().default(false),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
  consumedByContext: text('consumed_by_context'),
  /** The Stripe subscription a monthly plan's session opened (migration 0020, decision 120). */
  subscriptionId: text('subscription_id'),
  /** The contract the payment belongs to (migration 0031, decision 175). */
  contractId: bigint('contract_id', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});

/** Every webhook delivery accepted, keyed by provider and event id (duplicates are ignored). */
export const webhookEvents = pgTable('webhook_events', {
  provider: text('provider').notNull(),
  id: text('id').notNull(),
  type: text('type').notNull(),
  payload: jsonb('payload').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().default(sql`now()`),
});
