import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminClient } from '#bff/auth/supabase.ts';
import type { Clock } from '#bff/clock.ts';
import { parseConfig } from '#bff/config.ts';
import { ensureAccount } from '#bff/members/accounts.ts';
import { type Product, startProduct } from '#bff/start.ts';
import { E2E_STAFF_PASSWORD, e2eStaffEmail } from '#tests/e2e/support/staff-accounts.ts';

/**
 * A product of its own for a walk that crosses the legal periods: the shared e2e server's time never
 * moves, this one runs on `clock` (which the walk moves), serves the built client, has no demo data
 * and one staff account, « spare », for `signInE2EStaff`.
 */
export async function startMovableProduct(port: number, clock: Clock, dataPrefix: string): Promise<Product> {
  const base = `http://localhost:${port}`;
  const config = parseConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_SITE_URL: base,
    DATA_DIR: mkdtempSync(join(tmpdir(), dataPrefix)),
    DEMO_DATA: 'false',
  });
  const product = await startProduct(config, { clock, clientDir: join(process.cwd(), 'dist', 'client') });
  await ensureAccount(adminClient(product.auth), product.database.db, {
    email: e2eStaffEmail('spare'),
    password: E2E_STAFF_PASSWORD,
    kind: 'staff',
    name: 'spare',
  });
  return product;
}
