import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Database } from '#bff/db/database.ts';

/**
 * Logical backup of the whole database, the same on PGlite and PostgreSQL (decision 070): every
 * row of every table of the `public` and `embedded_auth` schemas as JSON (`json_agg`), with the
 * list of applied migrations. Restore loads it into a database migrated to the same point, in
 * one transaction: tables emptied, rows inserted in foreign-key order with
 * `json_populate_recordset` (types restored by PostgreSQL itself: jsonb, timestamptz, bytea),
 * sequences moved past the highest id. A PGlite backup restores on PostgreSQL and back.
 */

const BACKUP_FORMAT = 'union-sincere/db-backup';
const BACKUP_VERSION = 1;
const SCHEMAS = ['public', 'embedded_auth'];
const BOOKKEEPING = 'public.schema_migrations';
/**
 * Tables their triggers rebuild from the rows restored (the billing view's daily totals, migration
 * 0058): backed up like every table, never loaded back (they would count the lines twice).
 */
const DERIVED = new Set(['public.billing_day_totals']);

interface BackupTable {
  name: string;
  rows: unknown[];
}

export interface Backup {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  createdAt: string;
  engine: Database['kind'];
  migrations: string[];
  tables: BackupTable[];
}

type Row = Record<string, unknown>;

async function rows<R extends Row>(database: Database, query: ReturnType<typeof sql>): Promise<R[]> {
  return ((await database.db.execute(query)) as unknown as { rows: R[] }).rows;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const qualified = (name: string) => name.split('.').map(quoteIdent).join('.');

/** Every table of the backed-up schemas, as `schema.table`, parents before children (FK order). */
async function tablesInOrder(database: Database): Promise<string[]> {
  const tables = (
    await rows<{ name: string }>(
      database,
      sql`SELECT n.nspname || '.' || c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE c.relkind IN ('r', 'p') AND n.nspname IN (${sql.join(
            SCHEMAS.map((s) => sql`${s}`),
            sql`, `,
          )}) ORDER BY 1`,
    )
  )
    .map((r) => r.name)
    .filter((name) => name !== BOOKKEEPING);
  const edges = await rows<{ child: string; parent: string }>(
    database,
    sql`SELECT cn.nspname || '.' || cc.relname AS child, pn.nspname || '.' || pc.relname AS parent
        FROM pg_constraint k
        JOIN pg_class cc ON cc.oid = k.conrelid JOIN pg_namespace cn ON cn.oid = cc.relnamespace
        JOIN pg_class pc ON pc.oid = k.confrelid JOIN pg_namespace pn ON pn.oid = pc.relnamespace
        WHERE k.contype = 'f'`,
  );
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of edges) if (child !== parent && parents.has(child) && parents.has(parent)) parents.get(child)?.add(parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter((t) => !placed.has(t) && [...(parents.get(t) ?? [])].every((p) => placed.has(p)));
    if (ready.length === 0) throw new Error('cycle de clés étrangères entre les tables');
    for (const t of ready) {
      ordered.push(t);
      placed.add(t);
    }
  }
  return ordered;
}

async function appliedMigrations(database: Database): Promise<string[]> {
  return (await rows<{ m: string }>(database, sql`SELECT set_name || '/' || file AS m FROM schema_migrations ORDER BY 1`)).map((r) => r.m);
}

/** Reads every row of every table. */
export async function backupDatabase(database: Database, now = new Date()): Promise<Backup> {
  const tables: BackupTable[] = [];
  const names = await tablesInOrder(database);
  // One snapshot on PostgreSQL (repeatable read); PGlite has a single connection anyway (so
  // nothing inside this transaction may use `database` itself).
  await database.db.transaction(async (tx) => {
    if (database.kind === 'postgres') await tx.execute(sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY`);
    for (const name of names) {
      const result = (await tx.execute(
        sql.raw(`SELECT coalesce(json_agg(t), '[]'::json) AS rows FROM ${qualified(name)} t`),
      )) as unknown as {
        rows: { rows: unknown[] | string }[];
      };
      const value = result.rows[0]?.rows ?? [];
      tables.push({ name, rows: typeof value === 'string' ? (JSON.parse(value) as unknown[]) : value });
    }
  });
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: now.toISOString(),
    engine: database.kind,
    migrations: await appliedMigrations(database),
    tables,
  };
}

export function encodeBackup(backup: Backup): Buffer {
  return gzipSync(Buffer.from(JSON.stringify(backup), 'utf8'));
}

export function decodeBackup(bytes: Buffer): Backup {
  const text = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
  const backup = JSON.parse(text) as Backup;
  if (backup.format !== BACKUP_FORMAT || backup.version !== BACKUP_VERSION)
    throw new Error('Ce fichier n’est pas une sauvegarde Union Sincère (format inconnu).');
  return backup;
}

/** Number of rows per table (to compare before and after). */
export async function rowCounts(database: Database): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of await tablesInOrder(database)) {
    const [r] = await rows<{ n: number }>(database, sql.raw(`SELECT count(*)::int AS n FROM ${qualified(name)}`));
    counts[name] = r?.n ?? 0;
  }
  return counts;
}

/**
 * The rows the migrations themselves write into a new database (0051: the three prospect
 * templates): a database holding no more than these is still empty for a restore, which replaces
 * them with the backup's own.
 */
const SEEDED_BY_MIGRATIONS: Record<string, number> = { 'public.message_templates': 3 };

/**
 * Loads a backup into `database`, which must be migrated to exactly the backup's migrations.
 * Refuses a database that holds data unless `replace` is set; then its tables are emptied first.
 * All or nothing (one transaction).
 */
export async function restoreDatabase(
  database: Database,
  backup: Backup,
  options: { replace?: boolean } = {},
): Promise<Record<string, number>> {
  const applied = await appliedMigrations(database);
  const missing = backup.migrations.filter((m) => !applied.includes(m));
  const extra = applied.filter((m) => !backup.migrations.includes(m));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(
      `Les migrations de la base (${applied.length}) et de la sauvegarde (${backup.migrations.length}) diffèrent : ${[...missing.map((m) => `absente de la base ${m}`), ...extra.map((m) => `absente de la sauvegarde ${m}`)].join(', ')}.`,
    );
  }
  const order = await tablesInOrder(database);
  const byName = new Map(backup.tables.map((t) => [t.name, t]));
  const unknown = backup.tables.map((t) => t.name).filter((n) => !order.includes(n));
  if (unknown.length > 0) throw new Error(`Tables inconnues dans la sauvegarde : ${unknown.join(', ')}`);
  if (!options.replace) {
    const counts = await rowCounts(database);
    const filled = Object.entries(counts)
      .filter(([t, n]) => n > (SEEDED_BY_MIGRATIONS[t] ?? 0))
      .map(([t]) => t);
    if (filled.length > 0)
      throw new Error(`La base contient déjà des données (${filled.join(', ')}) : relancez avec --replace pour les remplacer.`);
  }
  const restored: Record<string, number> = {};
  await database.db.transaction(async (tx) => {
    await tx.execute(sql.raw(`TRUNCATE ${order.map(qualified).join(', ')} RESTART IDENTITY CASCADE`));
    for (const name of order) {
      if (DERIVED.has(name)) continue;
      const table = byName.get(name);
      const data = table?.rows ?? [];
      restored[name] = data.length;
      if (data.length === 0) continue;
      // In chunks, so that one parameter stays reasonably small.
      for (let i = 0; i < data.length; i += 500) {
        const chunk = JSON.stringify(data.slice(i, i + 500));
        await tx.execute(
          sql`INSERT INTO ${sql.raw(qualified(name))} SELECT * FROM json_populate_recordset(NULL::${sql.raw(qualified(name))}, ${chunk}::json)`,
        );
      }
    }
    // Sequences (bigserial columns) continue after the highest restored id.
    const sequences = (await tx.execute(
      sql`SELECT table_schema || '.' || table_name AS tbl, column_name AS col,
                 pg_get_serial_sequence(quote_ident(table_schema) || '.' || quote_ident(table_name), column_name) AS seq
          FROM information_schema.columns
          WHERE table_schema IN (${sql.join(
            SCHEMAS.map((s) => sql`${s}`),
            sql`, `,
          )}) AND column_default LIKE 'nextval(%'`,
    )) as unknown as { rows: { tbl: string; col: string; seq: string | null }[] };
    for (const { tbl, col, seq } of sequences.rows) {
      if (!seq || tbl === BOOKKEEPING) continue;
      await tx.execute(
        sql.raw(
          `SELECT setval('${seq.replaceAll("'", "''")}', coalesce((SELECT max(${quoteIdent(col)}) FROM ${qualified(tbl)}), 0) + 1, false)`,
        ),
      );
    }
  });
  return restored;
}
