import { PostgresAdapter, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * The database handle every query takes: the app's Kysely (`Db.kysely`) or a transaction of it.
 * `Db` (connect.ts) is the connection itself, with its kind and pool; stores take an Executor so
 * that a caller can run them inside its own transaction.
 */
export type Executor = Kysely<Database>;

/** Whether a handle runs on PostgreSQL (else SQLite), for the few statements written for each. */
export const onPostgres = (db: Executor): boolean => db.getExecutor().adapter instanceof PostgresAdapter;
