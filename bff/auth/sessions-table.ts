import { join } from 'node:path';
import type { SessionsTableName } from '#bff/auth/store/cached-members.ts';
import { appMigrationsThen } from '#bff/auth/store/migration-sets.ts';
import type { MigrationSet } from '#bff/db/migrate.ts';

/**
 * Where Supabase Auth keeps its sessions, read by the member cache on every load so that a
 * session ended anywhere is refused at once (decision 100): the embedded service's table, or the
 * hosted project's own `auth.sessions` (DATABASE_URL is then the project's database). The one
 * place that names it.
 */
export type SessionsTable = SessionsTableName;

export function sessionsTableOf(config: { supabase?: unknown }): SessionsTable {
  return config.supabase ? 'auth.sessions' : 'embedded_auth.sessions';
}

/** The triggers that announce session changes on a hosted project's auth.sessions. */
export const hostedAuthMigrations: MigrationSet = { name: 'hosted-auth', dir: join(import.meta.dirname, 'hosted-migrations') };

/**
 * The migration sets a configuration applies: the embedded service's (`embeddedAuth`, handed in by
 * whoever composes the product: the auth service is reached only from there), or the hosted triggers.
 */
export function migrationSetsOf(config: { supabase?: unknown }, embeddedAuth: MigrationSet): MigrationSet[] {
  return appMigrationsThen(config.supabase ? hostedAuthMigrations : embeddedAuth);
}
