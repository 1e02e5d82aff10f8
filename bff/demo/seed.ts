import type { SupabaseClient } from '@supabase/supabase-js';
import type { Db } from '#bff/db/database.ts';
import { ensureAccount } from '#bff/members/accounts.ts';

/** Demo accounts of embedded mode, printed at start. Never created with a hosted project. */
export const DEMO_ACCOUNTS = [
  { label: 'Membre (femme)', email: 'amina@demo.union-sincere.fr', password: 'demo-amina-2026', kind: 'femme' as const },
  { label: 'Membre (homme)', email: 'youssef@demo.union-sincere.fr', password: 'demo-youssef-2026', kind: 'homme' as const },
  {
    label: 'Équipe (TOTP à la 1re connexion)',
    email: 'equipe@demo.union-sincere.fr',
    password: 'demo-equipe-2026',
    kind: 'staff' as const,
    name: 'Équipe démo',
  },
];

/**
 * Creates the demo accounts that do not exist yet (on a restart: three lookups, nothing else).
 * The three are independent: created concurrently, so that their password hashes (argon2id,
 * on libuv's pool) overlap at the first start (decision 080).
 */
export async function seedDemo(admin: SupabaseClient, db: Db): Promise<typeof DEMO_ACCOUNTS> {
  await Promise.all(DEMO_ACCOUNTS.map((account) => ensureAccount(admin, db, account)));
  return DEMO_ACCOUNTS;
}
