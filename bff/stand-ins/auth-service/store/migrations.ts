// The embedded auth service's SQL migrations (the folder beside this file), as a set for `migrate`.
import { join } from 'node:path';
import type { MigrationSet } from '#bff/db/migrate.ts';

/** The service's SQL (schema `embedded_auth`), to pass to `migrate` beside the app's own set. */
export const authMigrations: MigrationSet = { name: 'auth', dir: join(import.meta.dirname, 'migrations') };
