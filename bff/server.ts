import { ConfigError, parseConfig } from '#bff/config.ts';
import { startProduct } from '#bff/start.ts';

/** Starts the product: one Node process serving the SPA, the API and the embedded stand-ins. */
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
  const product = await startProduct(config);
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
