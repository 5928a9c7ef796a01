import type { Executor } from '../db/executor.js';
import type { OutboxTable } from './outbox-statistics.js';

// Messages written to an outbox ring its bell once their transaction commits (`afterCommit`,
// daemon/db/in-transaction.ts), and the loop of the same daemon that delivers that outbox looks
// for them at once instead of at its next poll. Other daemons sharing the database find them at
// their next poll as before.

/** Who listens on each database, by outbox: the delivery loops of the app that database belongs to. */
const listeners = new WeakMap<Executor, Map<OutboxTable, Set<() => void>>>();

/** Listens for messages queued in `table` on `db` (the app's own handle, not a transaction); answers how to stop. */
export function listenForQueuedMessages(db: Executor, table: OutboxTable, listener: () => void): () => void {
  let tables = listeners.get(db);
  if (!tables) listeners.set(db, (tables = new Map()));
  let set = tables.get(table);
  if (!set) tables.set(table, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

const ring = (table: OutboxTable) => (db: Executor) => {
  for (const listener of listeners.get(db)?.get(table) ?? []) listener();
};

/**
 * The commit hook of each outbox, for `afterCommit`: messages were queued in it on `db` and have
 * committed, and its listeners look now. One function per outbox, so a transaction that queues
 * many rings once.
 */
export const messagesQueued: Record<OutboxTable, (db: Executor) => void> = {
  notification_outbox: ring('notification_outbox'),
  status_page_mail: ring('status_page_mail'),
};
