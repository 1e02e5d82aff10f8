import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '#bff/config.ts';
import { seedFromTemplate } from '#bff/db/pglite-template.ts';
import { adminClient } from '#bff/auth/supabase.ts';
import { authMigrations } from '#bff/stand-ins/auth-service/store/migrations.ts';
import { migrationSetsOf } from '#bff/auth/sessions-table.ts';
import { ensureAccount } from '#bff/members/accounts.ts';
import { startProduct } from '#bff/start.ts';
import { E2E_STAFF_DISPLAY_NAMES, E2E_STAFF_NAMES, E2E_STAFF_PASSWORD, e2eStaffEmail } from '#tests/e2e/support/staff-accounts.ts';

/** The product as `npm start` runs it, on a throw-away data folder, for the browser tests. */
const port = process.env.E2E_PORT ?? '4173';
const dataDir = mkdtempSync(join(tmpdir(), 'union-e2e-'));
const config = parseConfig({
  NODE_ENV: 'test',
  PORT: port,
  HOST: '127.0.0.1',
  PUBLIC_SITE_URL: `http://localhost:${port}`,
  DATA_DIR: dataDir,
  DEMO_DATA: 'true',
  // The demo accounts without the demo agency: the browser tests start from an empty agency.
  DEMO_AGENCY: 'false',
  DATABASE_URL: process.env.E2E_DATABASE_URL,
});
// The build's migrated cluster (dist/pglite-template) copied into the fresh folder, as `npm start`
// does (bff/server.ts), instead of PGlite's initdb and every migration (decision 199).
const seeding = config.databaseUrl
  ? Promise.resolve(false)
  : seedFromTemplate(join(dataDir, 'pglite'), migrationSetsOf(config, authMigrations));
const product = await startProduct(config, { beforeDatabase: seeding });
for (const name of E2E_STAFF_NAMES) {
  await ensureAccount(adminClient(product.auth), product.database.db, {
    email: e2eStaffEmail(name),
    password: E2E_STAFF_PASSWORD,
    kind: 'staff',
    name: E2E_STAFF_DISPLAY_NAMES[name],
  });
}
console.log(`e2e server on ${product.url} (${dataDir})`);
const stop = () => product.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
