// The product database's migration sets: the app's own first, then the auth side's.
import { appMigrations, type MigrationSet } from '#bff/db/migrate.ts';

/** The app's migrations, then `auth` (the embedded service's, or the hosted project's triggers). */
export function appMigrationsThen(auth: MigrationSet): MigrationSet[] {
  return [appMigrations, auth];
}
