import type { Executor } from './executor.js';

/**
 * What a transaction has read that stays the same while it lives. An engine that opens many
 * incidents in one transaction (a batch of results with many checks down at once) reads its
 * organization, the default channels and the members' settings once instead of once per
 * incident. Kept per transaction, and only while it lives; outside a transaction every call reads.
 */
const readInTransaction = new WeakMap<Executor, Map<string, Promise<unknown>>>();

/** Answers what `read` answered the first time this transaction asked for `key`; reads when it has not. */
export function readOncePerTransaction<T>(db: Executor, key: string, read: () => Promise<T>): Promise<T> {
  if (!db.isTransaction) return read();
  let reads = readInTransaction.get(db);
  if (!reads) readInTransaction.set(db, (reads = new Map()));
  let known = reads.get(key) as Promise<T> | undefined;
  if (!known) reads.set(key, (known = read()));
  return known;
}
