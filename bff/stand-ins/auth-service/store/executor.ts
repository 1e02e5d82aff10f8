// The handle every query of the embedded auth service runs on: the database or an open transaction.
import type { Db } from '#bff/db/database.ts';

/** Executor for drizzle queries: the database or an open transaction. */
export type Executor = Pick<Db, 'insert' | 'select' | 'update' | 'delete' | 'execute'>;
