import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { type Database, openDatabase } from '#bff/db/database.ts';
import { authMigrations } from '#bff/stand-ins/auth-service/store/migrations.ts';
import { appMigrations, type MigrationSet, migrate } from '#bff/db/migrate.ts';
import { installedPgliteVersion } from '#bff/db/pglite-template.ts';

/**
 * A fresh, migrated database for one test file (decision 162): a copy of one migrated template,
 * made once per set of migrations and reused while they do not change.
 *
 * - PGlite (default): the template is a dump of a migrated data folder
 *   (`node_modules/.cache/union-sincere/test-db/<key>.tar`); each test file loads it into memory
 *   (≈ 0.6 s) instead of running `initdb` and every migration (4–6 s of CPU).
 * - PostgreSQL (`DATABASE_URL`): a migrated template database `tpl_<key>` on that server; each test
 *   file gets `CREATE DATABASE … TEMPLATE tpl_<key>`, dropped at close.
 *
 * The key hashes PGlite's version, the sets' names and every migration file's content, so an
 * edited or added migration makes a new template. `tests/support/global-setup.ts` makes the
 * templates before the workers start; a worker that finds none makes it itself.
 */
export async function openTestDatabase(extraSets: MigrationSet[] = []): Promise<Database> {
  const sets = [appMigrations, ...extraSets];
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return openTestPglite(extraSets);
  const template = await serverTemplate(serverUrl, sets);
  const name = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin(serverUrl, (admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const database = await openDatabase({ url: databaseUrl(serverUrl, name) });
  return {
    ...database,
    close: async () => {
      await database.close();
      await withAdmin(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** A fresh in-memory PGlite from the template of `[app, ...extraSets]`, whatever DATABASE_URL says. */
export async function openTestPglite(extraSets: MigrationSet[] = []): Promise<Database> {
  return openDatabase({ loadDataDir: await pgliteTemplate([appMigrations, ...extraSets]) });
}

/** The migration sets every test product starts with (the embedded auth service's included). */
export const TEMPLATE_SETS: MigrationSet[][] = [[appMigrations], [appMigrations, authMigrations]];

/** Makes the templates of `setsList` unless they exist (Vitest's global set-up). */
export async function ensureTestTemplates(setsList: MigrationSet[][]): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  for (const sets of setsList) {
    if (serverUrl) await serverTemplate(serverUrl, sets);
    else await pgliteTemplate(sets);
  }
}

const TEST_TEMPLATE_DIR = join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'union-sincere', 'test-db');

/** A short hash naming the database that `sets` give on the installed PGlite. */
function templateKey(sets: MigrationSet[]): string {
  const hash = createHash('sha256').update(`pglite ${installedPgliteVersion() ?? '?'}\n`);
  for (const set of sets) {
    hash.update(`set ${set.name}\n`);
    for (const file of readdirSync(set.dir)
      .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
      .sort()) {
      hash.update(`${file}\n`).update(readFileSync(join(set.dir, file)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

async function pgliteTemplate(sets: MigrationSet[]): Promise<Blob> {
  const file = join(TEST_TEMPLATE_DIR, `${templateKey(sets)}.tar`);
  if (!existsSync(file)) {
    const work = join(TEST_TEMPLATE_DIR, `work-${process.pid}-${randomBytes(4).toString('hex')}`);
    mkdirSync(TEST_TEMPLATE_DIR, { recursive: true });
    try {
      const database = await openDatabase({ dataDir: work });
      try {
        await migrate(database, sets);
      } finally {
        await database.close();
      }
      const cluster = new PGlite(work, { extensions: { pg_trgm } });
      await cluster.waitReady;
      const dump = await cluster.dumpDataDir('none');
      await cluster.close();
      // Written aside, then renamed: a worker never reads half a template.
      writeFileSync(`${work}.tar`, Buffer.from(await dump.arrayBuffer()));
      renameSync(`${work}.tar`, file);
    } finally {
      rmSync(work, { recursive: true, force: true });
      rmSync(`${work}.tar`, { force: true });
    }
  }
  return new Blob([readFileSync(file)]);
}

async function serverTemplate(serverUrl: string, sets: MigrationSet[]): Promise<string> {
  const name = `tpl_${templateKey(sets)}`;
  await withAdmin(serverUrl, async (admin) => {
    // One maker at a time; the others find the template done.
    await admin.query('SELECT pg_advisory_lock(72657302)');
    try {
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount) return;
      const work = `${name}_work`;
      await admin.query(`DROP DATABASE IF EXISTS ${work} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${work}`);
      const database = await openDatabase({ url: databaseUrl(serverUrl, work) });
      try {
        await migrate(database, sets);
      } finally {
        await database.close();
      }
      await admin.query(`ALTER DATABASE ${work} RENAME TO ${name}`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock(72657302)');
    }
  });
  return name;
}

async function withAdmin<T>(serverUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
