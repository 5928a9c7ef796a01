import type { Executor } from './executor.js';

/** Runs `fn` in a transaction, or directly when `db` already is one, so that callers can compose. */
export async function inTransaction<T>(db: Executor, fn: (trx: Executor) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
