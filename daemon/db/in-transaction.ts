import type { Executor } from './executor.js';

/**
 * What to do once a transaction begun by `inTransaction` has committed, each hook told the
 * database the transaction ran on. A hook registered twice runs once. Kept per transaction, and
 * only while it lives.
 */
const commitHooks = new WeakMap<Executor, Set<(db: Executor) => void>>();

/** Runs `fn` in a transaction, or directly when `db` already is one, so that callers can compose. */
export async function inTransaction<T>(db: Executor, fn: (trx: Executor) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  let transaction: Executor | undefined;
  const result = await db.transaction().execute((trx) => {
    transaction = trx;
    return fn(trx);
  });
  for (const hook of commitHooks.get(transaction!) ?? []) hook(db);
  return result;
}

/**
 * Runs `hook` once the transaction `trx` commits, or at once when `trx` is not a transaction.
 * Only a transaction begun by `inTransaction` runs its hooks: one begun elsewhere drops them, so
 * a hook may make something happen sooner, never be what makes it happen at all. Hooks run
 * before `inTransaction` answers and must not throw: the transaction has committed.
 */
export function afterCommit(trx: Executor, hook: (db: Executor) => void): void {
  if (!trx.isTransaction) return hook(trx);
  let hooks = commitHooks.get(trx);
  if (!hooks) commitHooks.set(trx, (hooks = new Set()));
  hooks.add(hook);
}
