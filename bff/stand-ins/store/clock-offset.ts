// The agency clock's offset (stand-ins outside production), kept in `settings`.
import { eq } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { settings } from '#bff/db/schema.ts';

const AGENCY_CLOCK_KEY = 'stand-ins.agency_clock_offset_ms';

/** The stored offset as written (unchecked), undefined on a new database. */
export async function storedClockOffset(db: Db): Promise<unknown> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, AGENCY_CLOCK_KEY)).limit(1);
  return row?.value;
}

export async function saveClockOffset(db: Db, offset: number, at: Date): Promise<void> {
  await db
    .insert(settings)
    .values({ key: AGENCY_CLOCK_KEY, value: offset, updatedAt: at })
    .onConflictDoUpdate({ target: settings.key, set: { value: offset, updatedAt: at } });
}
