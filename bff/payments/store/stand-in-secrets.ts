// Stores the webhook secret of the embedded checkout stand-in (a settings row, generated once).
import type { Db } from '#bff/db/database.ts';
import { STRIPE_STAND_IN_SECRET_KEY, standInSecret } from '#bff/db/stand-in-secrets.ts';

export function stripeStandInSecret(db: Db): Promise<string> {
  return standInSecret(db, STRIPE_STAND_IN_SECRET_KEY, 'whsec_');
}
