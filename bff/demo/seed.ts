import type { SupabaseClient } from '@supabase/supabase-js';
import type { Db } from '#bff/db/database.ts';
import { demoMarker, setDemoMarker } from '#bff/demo/store/markers.ts';
import { ensureAccount } from '#bff/members/accounts.ts';

/**
 * Demo accounts of embedded mode, printed at start. Never created with a hosted project. Their
 * passwords meet the policy of every new password (decision 180: 12 characters, not common, not
 * built on the address), as a member would have to choose them (decision 188).
 */
export const DEMO_ACCOUNTS = [
  { label: 'Membre (femme)', email: 'amina@demo.union-sincere.fr', password: 'figuier-lanterne-2026', kind: 'femme' as const },
  { label: 'Membre (homme)', email: 'youssef@demo.union-sincere.fr', password: 'cedre-boussole-2026', kind: 'homme' as const },
  {
    label: 'Équipe (TOTP à la 1re connexion)',
    email: 'equipe@demo.union-sincere.fr',
    password: 'olivier-cadran-2026',
    kind: 'staff' as const,
    name: 'Équipe démo',
  },
  {
    label: 'Conseillère (ses membres seulement\u00a0; TOTP à la 1re connexion)',
    email: 'conseil@demo.union-sincere.fr',
    password: 'grenadier-astrolabe-2026',
    kind: 'staff' as const,
    name: 'Nora, conseillère',
    staffRole: 'conseil' as const,
  },
];

/** What the start's log prints of a demo account. */
export interface DemoAccount {
  label: string;
  email: string;
  password: string;
}

/** The `settings` key noting that the demo accounts hold the passwords above (set once per data folder). */
const DEMO_PASSWORDS_KEY = 'demo-passwords';
const DEMO_PASSWORDS_VERSION = 2;

/**
 * Creates the demo accounts that do not exist yet (on a restart: three lookups and one read,
 * nothing else). The three are independent: created concurrently, so that their password hashes
 * (argon2id, on libuv's pool) overlap at the first start (decision 080). A data folder made before
 * the demo passwords changed gets the new ones once, so that what `npm start` prints still signs in.
 */
export async function seedDemo(admin: SupabaseClient, db: Db): Promise<typeof DEMO_ACCOUNTS> {
  const accounts = await Promise.all(DEMO_ACCOUNTS.map((account) => ensureAccount(admin, db, account)));
  const marker = await demoMarker(db, DEMO_PASSWORDS_KEY);
  if (marker?.value !== DEMO_PASSWORDS_VERSION) {
    await Promise.all(
      accounts.map(({ id, created }, i) =>
        created
          ? undefined
          : admin.auth.admin.updateUserById(id, { password: (DEMO_ACCOUNTS[i] as (typeof DEMO_ACCOUNTS)[number]).password }),
      ),
    );
    await setDemoMarker(db, DEMO_PASSWORDS_KEY, DEMO_PASSWORDS_VERSION, new Date());
  }
  return DEMO_ACCOUNTS;
}
