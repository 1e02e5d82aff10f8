import { sql } from 'drizzle-orm';
import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ConsentChoices } from '#machines/public-site/consent.ts';

/**
 * Tables of the public site (migration `0003_public_site.sql`). `pre_subscriptions` is in
 * `schema.ts`. `public-schema.test.ts` checks these against the migrated database.
 */

/** Proof of cookie consent: one row per choice made in the banner. */
export const consentRecords = pgTable('consent_records', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  anonymousId: uuid('anonymous_id').notNull(),
  version: text('version').notNull(),
  choices: jsonb('choices').$type<ConsentChoices>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
});
