import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Runs `fn` in a transaction, or directly when `db` already is one, so that callers can compose. */
export async function inTransaction<T>(db: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
