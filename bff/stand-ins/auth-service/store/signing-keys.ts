// The auth service's signing key, shared by every instance (embedded_auth.signing_keys).
import { eq } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { signingKeys } from '#bff/stand-ins/auth-service/store/schema.ts';

export async function currentSigningKey(db: Db) {
  const [row] = await db.select().from(signingKeys).where(eq(signingKeys.slot, 'current'));
  return row;
}

/** Inserts the key unless one is there already (`ON CONFLICT DO NOTHING`: the first one stays). */
export async function insertSigningKeyIfNone(db: Db, row: typeof signingKeys.$inferInsert): Promise<void> {
  await db.insert(signingKeys).values(row).onConflictDoNothing();
}
