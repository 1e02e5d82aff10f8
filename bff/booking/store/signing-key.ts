// The scheduling stand-in's webhook signing key, kept in `settings` (generated once, shared by every instance).
import type { Db } from '#bff/db/database.ts';
import { CALENDLY_STAND_IN_KEY, standInSecret } from '#bff/db/stand-in-secrets.ts';

/** The stand-in's key (created at its first read). */
export function standInSigningKey(db: Db): Promise<string> {
  return standInSecret(db, CALENDLY_STAND_IN_KEY, '');
}
