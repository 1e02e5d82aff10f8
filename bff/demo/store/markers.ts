// The demo's markers in `settings`: which seeding a data folder has already had.
import { eq } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { settings } from '#bff/db/schema.ts';

/** The marker's settings row, undefined when never set. */
export async function demoMarker(db: Db, key: string) {
  const [marker] = await db.select().from(settings).where(eq(settings.key, key)).limit(1);
  return marker;
}

/** Sets the marker to `value` (inserted, or updated at `updatedAt`). */
export async function setDemoMarker(db: Db, key: string, value: number, updatedAt: Date): Promise<void> {
  await db.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value, updatedAt } });
}
