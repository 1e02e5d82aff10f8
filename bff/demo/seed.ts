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

export async function seedDemo(admin: SupabaseClient, db: Db): Promise<typeof DEMO_ACCOUNTS> {
  for (const account of DEMO_ACCOUNTS) {
    await ensureAccount(admin, db, account);
  }
  return DEMO_ACCOUNTS;
}
