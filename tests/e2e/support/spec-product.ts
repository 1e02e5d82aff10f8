import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminClient } from '#bff/auth/supabase.ts';
import { parseConfig } from '#bff/config.ts';
import { ensureAccount } from '#bff/members/accounts.ts';
import { type Product, startProduct } from '#bff/start.ts';
import { E2E_STAFF_PASSWORD, e2eStaffEmail } from '#tests/e2e/support/staff-accounts.ts';

/**
 * A product of a spec's own (the walks that write people straight into the database), on `port`,
 * a fresh data folder, the built SPA, no demo data, and the staff account the spec signs in with
 * (`signInE2EStaff(…, 'spare')`).
 */
export async function startSpecProduct(port: number, name: string): Promise<Product> {
  const config = parseConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_SITE_URL: `http://localhost:${port}`,
    DATA_DIR: mkdtempSync(join(tmpdir(), `union-${name}-`)),
    DEMO_DATA: 'false',
  });
  const product = await startProduct(config, { clientDir: join(process.cwd(), 'dist', 'client') });
  await ensureAccount(adminClient(product.auth), product.database.db, {
    email: e2eStaffEmail('spare'),
    password: E2E_STAFF_PASSWORD,
    kind: 'staff',
    name: 'spare',
  });
  return product;
}
