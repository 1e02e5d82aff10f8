import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import type { Transaction } from '#bff/db/database.ts';
import { payInFullValue, upsertPayInFull } from '#bff/onboarding/store/plan-settings.ts';
import { type PayInFullSetting, payInFullSettingSchema } from '#machines/onboarding/plans.ts';

// Which pay-in-full plan each pack offers (decisions §5); staff change it from the dashboard.
/** Plain price by default: a permanent "10 % off" would be a reference-price claim to justify. */
export const DEFAULT_PAY_IN_FULL: PayInFullSetting = 'cash';

export async function readPayInFull(executor: Db | Transaction): Promise<PayInFullSetting> {
  return payInFullOf(await payInFullValue(executor));
}

/** The stored value, or the default when it is absent or not one of the settings. */
function payInFullOf(value: unknown): PayInFullSetting {
  const parsed = v.safeParse(payInFullSettingSchema, value);
  return parsed.success ? parsed.output : DEFAULT_PAY_IN_FULL;
}

/** The setting's JSON text as the onboarding event's statement returns it (`PAY_IN_FULL_JSON_SQL` of the store). */
export function payInFullOfJson(text: unknown): PayInFullSetting {
  return payInFullOf(typeof text === 'string' ? JSON.parse(text) : undefined);
}

export async function writePayInFull(db: Db, value: PayInFullSetting, now: Date): Promise<void> {
  await upsertPayInFull(db, value, now);
}

/**
 * Keeps `target` showing the stored pay-in-full setting (the public pages, decision 106): read at
 * once, then every `intervalMs`, so a staff change reaches every instance's pages within that time.
 * A failed read (database restarting) keeps the last value and is retried at the next tick.
 */
export function watchPayInFull(
  db: Db,
  target: { readonly payInFull: PayInFullSetting; setPayInFull(setting: PayInFullSetting): void },
  intervalMs = 3_000,
): { stop(): void; read(): Promise<void>; set(setting: PayInFullSetting): void } {
  let reading: Promise<void> | null = null;
  // A read begun before a change made here must not undo it.
  let generation = 0;
  const read = () => {
    const started = generation;
    reading ??= readPayInFull(db)
      .then((setting) => {
        if (started === generation && setting !== target.payInFull) target.setPayInFull(setting);
      })
      .catch(() => undefined)
      .finally(() => {
        reading = null;
      });
    return reading;
  };
  void read();
  const timer = setInterval(read, intervalMs);
  timer.unref();
  const set = (setting: PayInFullSetting) => {
    generation += 1;
    target.setPayInFull(setting);
  };
  return { stop: () => clearInterval(timer), read, set };
}
