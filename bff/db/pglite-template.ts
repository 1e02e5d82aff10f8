import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { MigrationSet } from '#bff/db/migrate.ts';

/**
 * The cluster a new PGlite data folder starts from (decision 080). `npm run build` makes it once
 * (`dist/pglite-template`): PGlite's own `initdb`, then the migrations of the embedded product
 * applied by `migrate` — the SQL files of `bff/db/migrations` and `bff/stand-ins/auth-service/store/migrations`,
 * pure DDL (no row, no secret: keys and demo accounts are made at start). The first start on an
 * empty `DATA_DIR` copies it (≈ 0.1 s) instead of running `initdb` and the migrations there
 * (2–4 s on this project's machine); `startProduct` then runs `migrate` as on any start, which
 * applies the migrations added since the build. The copy (≈ 1,100 files) runs on a worker thread,
 * so the server's modules load meanwhile (bff/server.ts).
 *
 * The template is used only when it can give the same database as a new cluster would: made by
 * the installed PGlite version, and every migration it holds still present with the same content
 * and in the same order. Anything else (no template, another version, a migration edited since
 * the build, a data folder that is not empty) leaves PGlite to `initdb` as before.
 */

export const PGLITE_TEMPLATE_DIR = join(import.meta.dirname, '..', '..', 'dist', 'pglite-template');
const META_FILE = 'pglite-template.json';
const CLUSTER = 'cluster';
const PGLITE_PACKAGE = join(import.meta.dirname, '..', '..', 'node_modules', '@electric-sql', 'pglite', 'package.json');
/** The file names `migrate` applies (bff/db/migrate.ts). */
const MIGRATION_FILE = /^\d{4}_[\w-]+\.sql$/;

interface TemplateMeta {
  pgliteVersion: string;
  createdAt: string;
  /** Per migration set, the files applied in the template, in order, with their SHA-256. */
  migrations: Record<string, { file: string; sha256: string }[]>;
}

/** The installed PGlite's version, or null when it cannot be read. */
export function installedPgliteVersion(packageJson = PGLITE_PACKAGE): string | null {
  try {
    const version = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' ? version : null;
  } catch {
    return null;
  }
}

function migrationFiles(set: MigrationSet): { file: string; sha256: string }[] {
  return readdirSync(set.dir)
    .filter((file) => MIGRATION_FILE.test(file))
    .sort()
    .map((file) => ({
      file,
      sha256: createHash('sha256')
        .update(readFileSync(join(set.dir, file)))
        .digest('hex'),
    }));
}

function templateMeta(templateDir: string): TemplateMeta | null {
  try {
    return JSON.parse(readFileSync(join(templateDir, META_FILE), 'utf8')) as TemplateMeta;
  } catch {
    return null;
  }
}

/**
 * Whether the template in `templateDir` can start a database that `migrate(sets)` will complete:
 * same PGlite version, the same sets, and each set's applied files a prefix of its current files.
 */
export function templateFits(sets: MigrationSet[], templateDir = PGLITE_TEMPLATE_DIR, version = installedPgliteVersion()): boolean {
  const meta = templateMeta(templateDir);
  if (!meta || version === null || meta.pgliteVersion !== version) return false;
  if (!existsSync(join(templateDir, CLUSTER, 'PG_VERSION'))) return false;
  const names = sets.map((set) => set.name).sort();
  if (JSON.stringify(Object.keys(meta.migrations).sort()) !== JSON.stringify(names)) return false;
  try {
    return sets.every((set) => {
      const current = migrationFiles(set);
      const applied = meta.migrations[set.name] ?? [];
      return applied.every((entry, i) => current[i]?.file === entry.file && current[i]?.sha256 === entry.sha256);
    });
  } catch {
    return false;
  }
}

/** Makes the template (at build time) unless one that fits `sets` is there. */
export async function ensurePgliteTemplate(sets: MigrationSet[], templateDir = PGLITE_TEMPLATE_DIR): Promise<'kept' | 'created'> {
  const version = installedPgliteVersion();
  if (!version) throw new Error('PGlite introuvable dans node_modules : modèle de base non créé');
  if (templateFits(sets, templateDir, version)) {
    // Kept only if it also holds every current migration (else remade with them).
    const meta = templateMeta(templateDir);
    if (sets.every((set) => meta?.migrations[set.name]?.length === migrationFiles(set).length)) return 'kept';
  }
  const { openDatabase } = await import('#bff/db/database.ts');
  const { migrate } = await import('#bff/db/migrate.ts');
  const work = `${templateDir}.tmp-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    const migrations = Object.fromEntries(sets.map((set) => [set.name, migrationFiles(set)]));
    const database = await openDatabase({ dataDir: join(work, CLUSTER) });
    try {
      await migrate(database, sets);
    } finally {
      await database.close();
    }
    const meta: TemplateMeta = { pgliteVersion: version, createdAt: new Date().toISOString(), migrations };
    writeFileSync(join(work, META_FILE), `${JSON.stringify(meta, null, 2)}\n`);
    rmSync(templateDir, { recursive: true, force: true });
    renameSync(work, templateDir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return 'created';
}

/**
 * Before PGlite opens `pgliteDir`: when the folder is missing or empty and the template fits
 * `sets`, copies the template's cluster there (into a temporary sibling, then renamed, so that an
 * interrupted copy never looks like a cluster). Returns whether it did.
 */
export async function seedFromTemplate(pgliteDir: string, sets: MigrationSet[], templateDir = PGLITE_TEMPLATE_DIR): Promise<boolean> {
  if (existsSync(pgliteDir) && readdirSync(pgliteDir).length > 0) return false;
  if (!templateFits(sets, templateDir)) return false;
  const work = `${pgliteDir}.tmp-${process.pid}`;
  mkdirSync(dirname(pgliteDir), { recursive: true });
  rmSync(work, { recursive: true, force: true });
  try {
    await copyTree(join(templateDir, CLUSTER), work);
    // rename(2) replaces a missing or empty folder, never one another process has filled since.
    renameSync(work, pgliteDir);
    return true;
  } catch {
    // Another process won the race, or the copy failed: PGlite initialises the folder itself.
    rmSync(work, { recursive: true, force: true });
    return false;
  }
}

/**
 * Copies a folder on a worker thread with synchronous calls: neither the main thread nor libuv's
 * pool (which the module loader uses to read files) waits for its ≈ 1,100 file creations.
 */
function copyTree(from: string, to: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(COPY_TREE, { eval: true, workerData: { from, to } });
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`copie du modèle interrompue (${code})`))));
  });
}

const COPY_TREE = `
const { copyFileSync, mkdirSync, readdirSync } = require('node:fs');
const { join, relative } = require('node:path');
const { from, to } = require('node:worker_threads').workerData;
const entries = readdirSync(from, { recursive: true, withFileTypes: true })
  .map((entry) => ({ entry, path: relative(from, join(entry.parentPath, entry.name)) }));
mkdirSync(to);
for (const { entry, path } of entries) if (entry.isDirectory()) mkdirSync(join(to, path), { recursive: true });
for (const { entry, path } of entries) if (entry.isFile()) copyFileSync(join(from, path), join(to, path));
`;
