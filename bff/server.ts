import { join } from 'node:path';
import { authMigrations } from '#bff/stand-ins/auth-service/store/migrations.ts';
import { migrationSetsOf } from '#bff/auth/sessions-table.ts';
import { ConfigError, parseConfig } from '#bff/config.ts';
import { seedFromTemplate } from '#bff/db/pglite-template.ts';

/**
 * Starts the product: one Node process serving the SPA, the API and the embedded stand-ins.
 * `npm start` runs the compiled form of this file (`dist/server/server.mjs`, built by
 * scripts/build-server.ts); `npm run dev` runs it through tsx.
 *
 * Start-up (decision 080, target < 2 s to the first 200): this module imports only what reads
 * the configuration; a new PGlite data folder is filled from the build's cluster on a worker
 * thread (bff/db/pglite-template.ts) while the rest of the server loads (`import('#bff/start.ts')`)
 * and starts to listen: public pages are answered before the database is open (decision 091).
 */
async function main() {
  let config: ReturnType<typeof parseConfig>;
  try {
    config = parseConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      // One plain line naming the variable (README): there is no logger without a configuration.
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // The same migration sets as startProduct applies: the auth service's only when it is embedded.
  const sets = migrationSetsOf(config, authMigrations);
  const seeding = config.databaseUrl ? Promise.resolve(false) : seedFromTemplate(join(config.dataDir, 'pglite'), sets);
  seeding.catch(() => {}); // awaited by startProduct, after it listens
  const { startProduct } = await import('#bff/start.ts');
  const product = await startProduct(config, { beforeDatabase: seeding });
  // JSON lines from here on, like every other line of the server (decision 107).
  const { log } = await import('#bff/logger.ts');
  log.info('Union Sincère est prêt', {
    url: product.url,
    database: product.database.kind === 'pglite' ? `PGlite (${config.dataDir}/pglite)` : 'PostgreSQL (DATABASE_URL)',
    auth: product.embedded.auth ? 'service embarqué (/auth/v1)' : 'projet Supabase hébergé',
    mail: product.embedded.mail ? `boîte locale ${product.url}/_local/mailbox` : 'SMTP (SMTP_URL)',
  });
  if (product.demoAccounts.length > 0) {
    // Demo accounts only (DEMO_DATA, never by default in production): no member's data.
    log.info('Comptes de démonstration', {
      accounts: product.demoAccounts.map((a) => ({ label: a.label, email: a.email, password: a.password })),
    });
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info(`${signal} reçu : arrêt propre…`);
    product.close().then(
      () => process.exit(0),
      (error) => {
        log.error('arrêt impossible', { err: error });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error) => {
  // Before or while the product starts, the logger may not be configured yet: one plain line on
  // stderr, like a bad configuration.
  console.error('Démarrage impossible :', error instanceof Error ? error.message : error);
  process.exit(1);
});
