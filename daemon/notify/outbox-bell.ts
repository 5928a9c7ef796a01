import type { Executor } from '../db/executor.js';

// Messages written to the notification outbox ring its bell once their transaction commits, and
// the dispatcher of the same daemon looks for them at once instead of at its next poll. Other
// daemons sharing the database find them at their next poll as before.

/** Who listens on each database: the dispatchers of the app that database belongs to. */
const listeners = new WeakMap<Executor, Set<() => void>>();

/** Listens for messages queued on `db` (the app's own handle, not a transaction); answers how to stop. */
export function listenForQueuedMessages(db: Executor, listener: () => void): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Messages were queued on `db` and have committed: its listeners look now. */
export function messagesQueued(db: Executor): void {
  for (const listener of listeners.get(db) ?? []) listener();
}
