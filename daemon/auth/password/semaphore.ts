/** Bounds how many tasks run at once; the rest wait in arrival order. */
export type Semaphore = {
  /** Runs `task` once a slot is free and settles as it does. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a slot. */
  readonly pending: number;
};

/**
 * A FIFO counting semaphore with `limit` slots. Password hashing uses it so a
 * burst of sign-ins queues instead of allocating argon2 memory for all at once.
 */
export function createSemaphore(limit: number): Semaphore {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`semaphore limit must be a positive integer, got ${limit}`);
  }
  let active = 0;
  const waiting: Array<() => void> = [];

  const release = (): void => {
    const next = waiting.shift();
    // Hand the slot straight to the next waiter so a newcomer cannot jump the queue.
    if (next) next();
    else active -= 1;
  };

  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active < limit) active += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    get pending() {
      return waiting.length;
    },
  };
}
