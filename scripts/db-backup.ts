import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { backupDatabase, encodeBackup } from './backup-core.ts';
import { scriptConfig, openConfiguredDatabase } from './script-config.ts';

/**
 * Backs up the database (PGlite in DATA_DIR, or DATABASE_URL) to one gzipped JSON file:
 *   npm run db:backup [-- --out chemin/sauvegarde.json.gz] [--keep-days 30]
 * Default file: $DATA_DIR/backups/union-sincere-<date>.json.gz; in that folder, backups older
 * than --keep-days (30, the privacy policy's §10) are deleted afterwards. With PGlite, stop the server
 * first (PGlite's folder is opened by one process at a time). See decision 070.
 */
const { values } = parseArgs({ options: { out: { type: 'string' }, 'keep-days': { type: 'string', default: '30' } } });
const keepDays = Number.parseInt(values['keep-days'], 10);
const config = scriptConfig();
const now = new Date();
const out = resolve(values.out ?? join(config.dataDir, 'backups', `union-sincere-${now.toISOString().replace(/[:.]/g, '-')}.json.gz`));
const database = await openConfiguredDatabase(config);
try {
  const backup = await backupDatabase(database, now);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, encodeBackup(backup), { mode: 0o600 });
  const rows = backup.tables.reduce((sum, t) => sum + t.rows.length, 0);
  console.log(`Sauvegarde écrite : ${out} (${backup.tables.length} tables, ${rows} lignes, base ${database.kind}).`);
  console.log('Elle contient des données personnelles et sensibles : conservez-la chiffrée, en accès restreint.');
  if (!values.out && Number.isFinite(keepDays) && keepDays > 0) {
    // Rotation: erased data must not outlive the stated backup period.
    const folder = dirname(out);
    for (const name of readdirSync(folder).filter((f) => /^union-sincere-.*\.json\.gz$/.test(f))) {
      const file = join(folder, name);
      if (now.getTime() - statSync(file).mtimeMs > keepDays * 86_400_000) {
        rmSync(file);
        console.log(`Ancienne sauvegarde supprimée : ${name}`);
      }
    }
  }
} catch (error) {
  console.error(`db:backup — ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
