import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { MEMBER_CHANNEL, MemberChangeFeed } from '#bff/db/change-feed.ts';
import * as schema from '#bff/db/schema.ts';
import { log } from '#bff/logger.ts';

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
  /** Changes to member rows committed by anyone (migration 0007), for the member cache. */
  readonly changes: MemberChangeFeed;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A postgres:// URL; when absent PGlite is used. */
  url?: string | undefined;
  /** PGlite data folder; when absent (and no url) the database lives in memory. */
  dataDir?: string | undefined;
  /** A PGlite dump (`dumpDataDir`) the in-memory database starts from (the tests' migrated template). */
  loadDataDir?: Blob | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url);
  return openPglite(options.dataDir, options.loadDataDir);
}

async function openPglite(dataDir: string | undefined, loadDataDir: Blob | undefined): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // pg_trgm: the member search's trigram indexes (migration 0052) need the extension in every PGlite that opens the data.
  const extensions = { pg_trgm };
  const client = dataDir ? new PGlite(dataDir, { extensions }) : new PGlite(loadDataDir ? { loadDataDir, extensions } : { extensions });
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  // One process owns a PGlite database: its own notifications arrive before each commit resolves.
  const changes = new MemberChangeFeed();
  await client.listen(MEMBER_CHANNEL, (payload) => changes.announce(payload));
  changes.setLive(true);
  return {
    kind: 'pglite',
    db,
    changes,
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
    close: async () => {
      changes.setLive(false);
      await client.close();
    },
  };
}

async function openPostgres(url: string): Promise<Database> {
  const changes = new MemberChangeFeed();
  const onNotification = memberNotices(changes);
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // Each of the pool's connections listens before it is handed out (pg-pool awaits `onConnect`):
    // a session receives its own notifications before its COMMIT completes, so a change made by
    // this instance is forgotten before the request that made it answers. Awaited, the LISTEN never
    // overlaps the request's first query; a connection that cannot listen is not used.
    onConnect: async (client) => {
      client.on('notification', onNotification);
      await client.query(`LISTEN ${MEMBER_CHANNEL}`);
    },
  });
  // A server restart makes idle clients emit errors; they are replaced on the next checkout.
  pool.on('error', (error) => log.error('base de données : connexion perdue', { err: error }));
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  const listener = listenForMemberChanges(url, changes, onNotification);
  return {
    kind: 'postgres',
    db,
    changes,
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
    close: async () => {
      await listener.close();
      await pool.end();
    },
  };
}

/** What a connection does with a notification: a `member_changed` goes to the feed. */
const memberNotices = (changes: MemberChangeFeed) => (message: pg.Notification) => {
  if (message.channel === MEMBER_CHANNEL) changes.announce(message.payload);
};

/**
 * Hears `member_changed` on PostgreSQL (decision 090). A dedicated connection listens for the
 * changes of every session (other instances, hand-written SQL); the feed is live only while it
 * is connected, and it reconnects by itself (250 ms, doubling up to 5 s). The pool's connections
 * listen too (`openPostgres`).
 */
function listenForMemberChanges(url: string, changes: MemberChangeFeed, onNotification: (message: pg.Notification) => void) {
  let closed = false;
  let current: pg.Client | undefined;
  let delay = 250;
  const retry = () => {
    if (closed) return;
    setTimeout(connect, delay).unref();
    delay = Math.min(delay * 2, 5_000);
  };
  const connect = async () => {
    if (closed) return;
    const client = new pg.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: 5_000 });
    client.on('notification', onNotification);
    client.on('error', () => {}); // followed by 'end'
    client.on('end', () => {
      if (current !== client) return;
      current = undefined;
      changes.setLive(false);
      if (!closed) log.error('base de données : écoute des changements interrompue, cache des membres suspendu, reconnexion…');
      retry();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${MEMBER_CHANNEL}`);
      if (closed) {
        await client.end();
        return;
      }
      current = client;
      delay = 250;
      changes.setLive(true);
    } catch {
      client.end().catch(() => {});
      retry();
    }
  };
  void connect();
  return {
    close: async () => {
      closed = true;
      changes.setLive(false);
      await current?.end().catch(() => {});
    },
  };
}

/** An open drizzle transaction on either engine. */
export type Transaction = Parameters<Parameters<Db['transaction']>[0]>[0];
