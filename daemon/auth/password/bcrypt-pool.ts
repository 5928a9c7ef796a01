/**
 * bcryptjs is pure JavaScript: a cost-12 hash would block the event loop for a
 * quarter of a second, stalling every other request. It runs here, in a small
 * pool of worker threads instead (bcrypt-worker.ts).
 */
import { WorkerPool, workerFile } from '../../workers/worker-pool.js';

/** bcrypt operations on worker threads. Inputs are already pre-hashed. */
export type BcryptPool = {
  /** A new bcrypt hash of `input` with a random salt at `cost`. */
  hash(input: string, cost: number): Promise<string>;
  /** Whether `input` matches the bcrypt hash `stored`. */
  compare(input: string, stored: string): Promise<boolean>;
  /** Worker threads alive now. */
  readonly workers: number;
  /** Terminates the workers; pending and later calls reject. */
  close(): Promise<void>;
};

/** One operation, as the worker receives it. */
export type BcryptJob = { op: 'hash'; input: string; cost: number } | { op: 'compare'; input: string; stored: string };

/**
 * A pool of at most `maxWorkers` threads, started on first use. Idle workers are
 * unref'd, so they never keep the process alive; a busy one is ref'd so the
 * process waits for its answer.
 */
export function createBcryptPool(maxWorkers: number): BcryptPool {
  if (!Number.isInteger(maxWorkers) || maxWorkers < 1) {
    throw new RangeError(`bcrypt pool size must be a positive integer, got ${maxWorkers}`);
  }
  const pool = new WorkerPool<BcryptJob, string | boolean>({ entry: workerFile(import.meta.url, './bcrypt-worker.js'), size: maxWorkers });
  let closed = false;
  const submit = async (job: BcryptJob): Promise<string | boolean> => {
    if (closed) throw new Error('bcrypt pool is closed');
    const outcome = await pool.run(job, {});
    if (outcome.ok) return outcome.value;
    if (closed) throw new Error('bcrypt pool is closed');
    throw new Error(`bcrypt: ${outcome.error ?? outcome.reason}`);
  };
  return {
    hash: (input, cost) => submit({ op: 'hash', input, cost }) as Promise<string>,
    compare: (input, stored) => submit({ op: 'compare', input, stored }) as Promise<boolean>,
    get workers() {
      return pool.workers;
    },
    async close() {
      closed = true;
      await pool.close();
    },
  };
}
