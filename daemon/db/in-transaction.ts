import type { Kysely, Transaction } from 'kysely';
import type { Executor } from './executor.js';
import type { Database } from './schema.js';

/**
 * What to do once a transaction begun by `inTransaction` has committed, each hook told the
 * database the transaction ran on. A hook registered twice runs once. Kept per transaction, and
 * only while it lives.
 */
const commitHooks = new WeakMap<Kysely<any>, Set<(db: Executor) => void>>();

/**
 * Runs `fn` in a transaction, or directly when `db` already is one, so that callers can compose.
 * Every transaction of the daemon begins here (test/architecture/transactions.test.ts), so that
 * its commit hooks run.
 */
export async function inTransaction<T, DB = Database>(db: Kysely<DB>, fn: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db as Transaction<DB>);
  let transaction: Transaction<DB> | undefined;
  const result = await db.transaction().execute((trx) => {
    transaction = trx;
    return fn(trx);
  });
  for (const hook of commitHooks.get(transaction!) ?? []) hook(db as Kysely<any>);
  return result;
}

/**
 * Runs `hook` once the transaction `trx` commits, or at once when `trx` is not a transaction.
 * Only a transaction begun by `inTransaction` runs its hooks (the daemon begins none elsewhere; a
 * bench or a test may, and drops them), so a hook may make something happen sooner, never be
 * what makes it happen at all. Hooks run before `inTransaction` answers and must not throw: the
 * transaction has committed.
 */
export function afterCommit(trx: Kysely<any>, hook: (db: Executor) => void): void {
  if (!trx.isTransaction) return hook(trx);
  let hooks = commitHooks.get(trx);
  if (!hooks) commitHooks.set(trx, (hooks = new Set()));
  hooks.add(hook);
}
