import { join } from 'node:path';
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
 * and starts to listen: public pages are answered before the database is open (decision 095).
 */
async function main() {
  let config: ReturnType<typeof parseConfig>;
  try {
    config = parseConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // The same migration sets as startProduct applies: the auth service's only when it is embedded.
  const sets = migrationSetsOf(config);
  const seeding = config.databaseUrl ? Promise.resolve(false) : seedFromTemplate(join(config.dataDir, 'pglite'), sets);
  seeding.catch(() => {}); // awaited by startProduct, after it listens
  const { startProduct } = await import('#bff/start.ts');
  const product = await startProduct(config, { beforeDatabase: seeding });
  const lines = [
    '',
    `  Union Sincère est prêt : ${product.url}`,
    `  Base de données : ${product.database.kind === 'pglite' ? `PGlite (${config.dataDir}/pglite)` : 'PostgreSQL (DATABASE_URL)'}`,
    `  Authentification : ${product.embedded.auth ? 'service embarqué (/auth/v1)' : 'projet Supabase hébergé'}`,
    `  E-mails : ${product.embedded.mail ? `boîte locale ${product.url}/_local/mailbox` : 'SMTP (SMTP_URL)'}`,
  ];
  if (product.demoAccounts.length > 0) {
    lines.push('', '  Comptes de démonstration :');
    for (const account of product.demoAccounts) lines.push(`    ${account.label.padEnd(34)} ${account.email}  /  ${account.password}`);
  }
  console.log(`${lines.join('\n')}\n`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`\n  ${signal} reçu : arrêt propre…`);
    product.close().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error) => {
  console.error('Démarrage impossible :', error instanceof Error ? error.message : error);
  process.exit(1);
});
