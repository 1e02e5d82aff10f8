import { parseArgs } from 'node:util';
import { authMigrations } from '#bff/stand-ins/auth-service/store/migrations.ts';
import { migrationSetsOf } from '#bff/auth/sessions-table.ts';
import { migrate } from '#bff/db/migrate.ts';
import { seedPopulation } from '#tests/support/seed-population.ts';
import { scriptConfig, openConfiguredDatabase } from './script-config.ts';

/**
 * Seeds active members with their match profiles into the configured database (DATABASE_URL, or
 * PGlite under DATA_DIR), for trying the candidates' ranking at scale (issue 22):
 *   node --import tsx scripts/seed-matching.ts [--count 10000] [--seed 22]
 * Deterministic: the same seed gives the same members (so run it once per database; a second run
 * with the same seed collides on the members' ids). Bulk inserts, 1,000 rows per statement.
 */
const { values } = parseArgs({ options: { count: { type: 'string', default: '10000' }, seed: { type: 'string', default: '22' } } });
const count = Number(values.count);
const seed = Number(values.seed);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed)) {
  console.error('seed-matching — --count et --seed doivent être des entiers (--count ≥ 1)');
  process.exit(1);
}
const config = scriptConfig();
const database = await openConfiguredDatabase(config);
try {
  await migrate(database, migrationSetsOf(config, authMigrations));
  const started = performance.now();
  await seedPopulation(database.db, count, seed, Date.now());
  console.log(
    `${count} membres actifs avec leur profil de mise en relation (graine ${seed}) en ${Math.round(performance.now() - started)} ms`,
  );
} finally {
  await database.close();
}
