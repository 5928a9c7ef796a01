import { setImmediate as nextTurn } from 'node:timers/promises';
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

/**
 * A turn of the event loop between the statements of a large write, on SQLite: there a statement
 * settles without one (the driver is synchronous), so a write of many statements would hold the
 * loop from the first to the last. PostgreSQL's statements wait on the network: nothing to do.
 */
export async function turnBetweenStatements(db: Executor): Promise<void> {
  if (!onPostgres(db)) await nextTurn();
}
