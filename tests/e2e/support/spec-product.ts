import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminClient } from '#bff/auth/supabase.ts';
import { authMigrations } from '#bff/stand-ins/auth-service/store/migrations.ts';
import { migrationSetsOf } from '#bff/auth/sessions-table.ts';
import { type Clock, systemClock } from '#bff/clock.ts';
import { parseConfig } from '#bff/config.ts';
import { seedFromTemplate } from '#bff/db/pglite-template.ts';
import { ensureAccount } from '#bff/members/accounts.ts';
import { type Product, startProduct } from '#bff/start.ts';
import { E2E_STAFF_PASSWORD, e2eStaffEmail } from '#tests/e2e/support/staff-accounts.ts';

function specConfig(port: number, dataDir?: string) {
  return parseConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_SITE_URL: `http://localhost:${port}`,
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
    DEMO_DATA: 'false',
  });
}

/**
 * A product of a spec's own (the walks that write people straight into the database, or cross
 * the legal periods), on `port`, a fresh data folder, the built SPA, no demo data, and the staff
 * account the spec signs in with (`signInE2EStaff(…, 'spare')`). The shared e2e server's time
 * never moves: this one runs on `clock`, which the walk may move.
 */
export async function startSpecProduct(port: number, name: string, clock: Clock = systemClock): Promise<Product> {
  const dataDir = mkdtempSync(join(tmpdir(), `union-${name}-`));
  const config = specConfig(port, dataDir);
  // The build's migrated cluster (dist/pglite-template), copied, instead of initdb and every migration (decision 199).
  const seeding = seedFromTemplate(join(dataDir, 'pglite'), migrationSetsOf(config, authMigrations));
  const product = await startProduct(config, { clock, clientDir: join(process.cwd(), 'dist', 'client'), beforeDatabase: seeding });
  await ensureAccount(adminClient(product.auth), product.database.db, {
    email: e2eStaffEmail('spare'),
    password: E2E_STAFF_PASSWORD,
    kind: 'staff',
    name: 'spare',
  });
  return product;
}
