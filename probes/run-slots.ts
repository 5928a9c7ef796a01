import type { CheckTypeName } from '../checks/index.js';

/** A bound on how many runs (of one check type) are under way at once; the rest wait in arrival order. */
export interface RunSlots {
  readonly limit: number;
  /** Runs holding a slot now. */
  readonly active: number;
  /** Runs waiting for one. */
  readonly pending: number;
  /**
   * Resolves with the function that gives the slot back once one is free; rejects with the
   * signal's reason if it aborts first (the run then never starts, and leaves the queue).
   */
  acquire(signal: AbortSignal): Promise<() => void>;
}

/** The bounded check types of one process (a type absent here is not bounded). */
export type ProbeSlots = Partial<Record<CheckTypeName, RunSlots>>;

/** A FIFO counting semaphore with `limit` slots whose waiters can give up. */
export function createRunSlots(limit: number): RunSlots {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`run slots: the limit must be a positive integer, got ${limit}`);
  let active = 0;
  const waiting: Array<() => void> = [];

  const releaser = () => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = waiting.shift();
      // The slot goes straight to the next waiter, so a newcomer cannot jump the queue.
      if (next) next();
      else active -= 1;
    };
  };

  return {
    limit,
    get active() {
      return active;
    },
    get pending() {
      return waiting.length;
    },
    acquire(signal) {
      if (signal.aborted) return Promise.reject(signal.reason);
      if (active < limit) {
        active += 1;
        return Promise.resolve(releaser());
      }
      return new Promise((resolve, reject) => {
        const grant = () => {
          signal.removeEventListener('abort', giveUp);
          resolve(releaser());
        };
        const giveUp = () => {
          const index = waiting.indexOf(grant);
          if (index >= 0) waiting.splice(index, 1);
          reject(signal.reason);
        };
        waiting.push(grant);
        signal.addEventListener('abort', giveUp, { once: true });
      });
    },
  };
}
