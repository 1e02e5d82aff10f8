// The plan setting (`settings` row `plans.pay_in_full`): which pay-in-full plan each pack offers.
import { eq, sql } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { settings } from '#bff/db/schema.ts';
import type { PayInFullSetting } from '#machines/onboarding/plans.ts';

const PAY_IN_FULL_KEY = 'plans.pay_in_full';

/** The stored value of the setting, if any. */
export async function payInFullValue(executor: Db | Transaction): Promise<unknown> {
  const [row] = await executor.select().from(settings).where(eq(settings.key, PAY_IN_FULL_KEY)).limit(1);
  return row?.value;
}

/**
 * The stored setting's JSON text as one column of another statement (the onboarding event's first
 * SELECT, decision 129), null when absent: read back with `payInFullOfJson`.
 */
export const PAY_IN_FULL_JSON_SQL = sql.raw(`(SELECT value::text FROM settings WHERE key = '${PAY_IN_FULL_KEY}')`);

/** Writes the setting (inserted, or replaced), dated `now`. */
export async function upsertPayInFull(db: Db, value: PayInFullSetting, now: Date): Promise<void> {
  await db
    .insert(settings)
    .values({ key: PAY_IN_FULL_KEY, value, updatedAt: now })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } });
}
