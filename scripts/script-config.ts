import { join } from 'node:path';
import { type Config, ConfigError, parseConfig } from '#bff/config.ts';
import { openDatabase } from '#bff/db/database.ts';

/** The product's configuration from the environment, without the demo data; on an invalid one, its message and exit 1. */
export function scriptConfig(): Config {
  try {
    return parseConfig({ ...process.env, DEMO_DATA: 'false' });
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
}

/** The database `config` names: PostgreSQL at its URL, else PGlite in the data folder. */
export function openConfiguredDatabase(config: Config) {
  return openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite') });
}
