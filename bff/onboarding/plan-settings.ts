import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import { settings } from '#bff/db/schema.ts';
import type { Transaction } from '#bff/db/database.ts';
import { type PayInFullSetting, payInFullSettingSchema } from '#machines/onboarding/plans.ts';

/** Which pay-in-full plan each pack offers (decisions §5); staff change it from the dashboard. */
export const PAY_IN_FULL_KEY = 'plans.pay_in_full';
/** Plain price by default: a permanent "10 % off" would be a reference-price claim to justify. */
export const DEFAULT_PAY_IN_FULL: PayInFullSetting = 'cash';

export async function readPayInFull(executor: Db | Transaction): Promise<PayInFullSetting> {
  const [row] = await executor.select().from(settings).where(eq(settings.key, PAY_IN_FULL_KEY)).limit(1);
  const parsed = v.safeParse(payInFullSettingSchema, row?.value);
  return parsed.success ? parsed.output : DEFAULT_PAY_IN_FULL;
}

export async function writePayInFull(db: Db, value: PayInFullSetting, now: Date): Promise<void> {
  await db
    .insert(settings)
    .values({ key: PAY_IN_FULL_KEY, value, updatedAt: now })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } });
}
