import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import { settings } from '#bff/db/schema.ts';

/**
 * Webhook secrets of the embedded stand-ins: generated once, kept in the `settings` table so that
 * the stand-in (which signs) and the webhook endpoint (which verifies) share them across restarts
 * and instances. Hosted services use the secrets from the configuration instead.
 */
const cache = new WeakMap<Db, Map<string, Promise<string>>>();

export const STRIPE_STAND_IN_SECRET_KEY = 'stand-ins.stripe_webhook_secret';
export const CALENDLY_STAND_IN_KEY = 'stand-ins.calendly_signing_key';

export function standInSecret(db: Db, key: string, prefix: string): Promise<string> {
  let perDb = cache.get(db);
  if (!perDb) {
    perDb = new Map();
    cache.set(db, perDb);
  }
  let secret = perDb.get(key);
  if (!secret) {
    secret = loadOrCreate(db, key, prefix);
    perDb.set(key, secret);
    secret.catch(() => perDb.delete(key));
  }
  return secret;
}

async function loadOrCreate(db: Db, key: string, prefix: string): Promise<string> {
  const candidate = `${prefix}${randomBytes(24).toString('hex')}`;
  // Insert-if-absent, then read: two instances starting at once agree on the first one written.
  await db.insert(settings).values({ key, value: candidate }).onConflictDoNothing({ target: settings.key });
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).limit(1);
  const parsed = v.safeParse(v.pipe(v.string(), v.minLength(16)), row?.value);
  if (!parsed.success) throw new Error(`Stand-in secret ${key} is missing or malformed`);
  return parsed.output;
}
