import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from '#bff/db/schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** One handle over either engine: drizzle for queries, `exec` for raw multi-statement SQL. */
export interface Database {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  /** Runs raw SQL, possibly several statements, outside any transaction. */
  exec(sqlText: string): Promise<void>;
  /** Runs raw SQL, possibly several statements, in one transaction (rolled back on error). */
  execInTransaction(sqlText: string): Promise<void>;
  /** Runs one parameterised statement and returns its rows. */
  query<Row extends Record<string, unknown>>(sqlText: string, params?: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A postgres:// URL; when absent PGlite is used. */
  url?: string | undefined;
  /** PGlite data folder; when absent (and no url) the database lives in memory. */
  dataDir?: string | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url);
  return openPglite(options.dataDir);
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = dataDir ? new PGlite(dataDir) : new PGlite();
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    exec: async (sqlText) => {
      await client.exec(sqlText);
    },
    execInTransaction: async (sqlText) => {
      await client.transaction(async (tx) => {
        await tx.exec(sqlText);
      });
    },
    query: async <Row extends Record<string, unknown>>(sqlText: string, params: unknown[] = []) =>
      (await client.query<Row>(sqlText, params)).rows,
    close: () => client.close(),
  };
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 });
  // A server restart makes idle clients emit errors; they are replaced on the next checkout.
  pool.on('error', (error) => console.error(`[db] connexion perdue : ${error.message}`));
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    exec: async (sqlText) => {
      await pool.query(sqlText);
    },
    execInTransaction: async (sqlText) => {
      const connection = await pool.connect();
      try {
        await connection.query('BEGIN');
        await connection.query(sqlText);
        await connection.query('COMMIT');
      } catch (error) {
        await connection.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        connection.release();
      }
    },
    query: async <Row extends Record<string, unknown>>(sqlText: string, params: unknown[] = []) =>
      (await pool.query<Row>(sqlText, params)).rows,
    close: () => pool.end(),
  };
}

/** An open drizzle transaction on either engine. */
export type Transaction = Parameters<Parameters<Db['transaction']>[0]>[0];
