import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { authMigrations } from '#bff/stand-ins/auth-service/store/migrations.ts';
import { appMigrations, migrate } from '#bff/db/migrate.ts';
import { decodeBackup, restoreDatabase } from './backup-core.ts';
import { scriptConfig, openConfiguredDatabase } from './script-config.ts';

/**
 * Restores a backup made by `npm run db:backup` into the configured database:
 *   npm run db:restore -- --file sauvegarde.json.gz [--replace]
 * The database is first migrated to the backup's migrations (same code version). A database that
 * already holds data is refused unless --replace (its data is then replaced, all or nothing).
 * Stop the server first. See decision 070.
 */
const { values } = parseArgs({ options: { file: { type: 'string' }, replace: { type: 'boolean', default: false } } });
if (!values.file) {
  console.error('db:restore — --file est requis.\nUsage : npm run db:restore -- --file sauvegarde.json.gz [--replace]');
  process.exit(1);
}
const config = scriptConfig();
const database = await openConfiguredDatabase(config);
try {
  const backup = decodeBackup(readFileSync(values.file));
  const withAuth = backup.migrations.some((m) => m.startsWith(`${authMigrations.name}/`));
  await migrate(database, withAuth ? [appMigrations, authMigrations] : [appMigrations]);
  const restored = await restoreDatabase(database, backup, { replace: values.replace });
  const rows = Object.values(restored).reduce((a, b) => a + b, 0);
  console.log(
    `Sauvegarde du ${backup.createdAt} restaurée : ${Object.keys(restored).length} tables, ${rows} lignes (base ${database.kind}).`,
  );
} catch (error) {
  console.error(`db:restore — ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
