import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '#bff/db/database.ts';
import { appMigrations, type MigrationSet, migrate } from '#bff/db/migrate.ts';

/**
 * A fresh, migrated database for one test file: PGlite in memory by default, or — when
 * DATABASE_URL is set — a new database created on that PostgreSQL server and dropped at close.
 */
export async function openTestDatabase(extraSets: MigrationSet[] = []): Promise<Database> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const database = await openDatabase({});
    await migrate(database, [appMigrations, ...extraSets]);
    return database;
  }
  const name = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  await migrate(database, [appMigrations, ...extraSets]);
  return {
    ...database,
    close: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
