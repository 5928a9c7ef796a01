/**
 * bcryptjs is pure JavaScript: a cost-12 hash would block the event loop for a
 * quarter of a second, stalling every other request. It runs here, in a small
 * pool of worker threads instead.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

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

type Request = { op: 'hash'; input: string; cost: number } | { op: 'compare'; input: string; stored: string };
type Reply = { result: string | boolean } | { error: string };
type Job = { request: Request; resolve: (value: string | boolean) => void; reject: (error: Error) => void };
type Slot = { worker: Worker; job: Job | null };

// Evaluated as a CommonJS script, so the same code runs whether this module was
// compiled to dist/ or is loaded from TypeScript source by the test runner; the
// main thread passes bcryptjs's resolved path because the eval'd script has no
// location of its own to resolve from.
const WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcryptPath);
parentPort.on('message', (request) => {
  try {
    const result = request.op === 'hash'
      ? bcrypt.hashSync(request.input, bcrypt.genSaltSync(request.cost))
      : bcrypt.compareSync(request.input, request.stored);
    parentPort.postMessage({ result });
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error) });
  }
});
`;

/**
 * A pool of at most `maxWorkers` threads, started on first use. Idle workers are
 * unref'd, so they never keep the process alive; a busy one is ref'd so the
 * process waits for its answer.
 */
export function createBcryptPool(maxWorkers: number): BcryptPool {
  if (!Number.isInteger(maxWorkers) || maxWorkers < 1) {
    throw new RangeError(`bcrypt pool size must be a positive integer, got ${maxWorkers}`);
  }
  const slots = new Set<Slot>();
  const queue: Job[] = [];
  let bcryptPath: string | undefined;
  let closed = false;

  const submit = (request: Request): Promise<string | boolean> => {
    if (closed) return Promise.reject(new Error('bcrypt pool is closed'));
    return new Promise((resolve, reject) => {
      queue.push({ request, resolve, reject });
      dispatch();
    });
  };

  const dispatch = (): void => {
    while (queue.length > 0) {
      let slot = [...slots].find((candidate) => candidate.job === null);
      if (slot === undefined && slots.size >= maxWorkers) return;
      const job = queue.shift() as Job;
      try {
        slot ??= spawn();
      } catch (error) {
        job.reject(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      slot.job = job;
      slot.worker.ref();
      slot.worker.postMessage(job.request);
    }
  };

  const spawn = (): Slot => {
    bcryptPath ??= createRequire(import.meta.url).resolve('bcryptjs');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { bcryptPath } });
    const slot: Slot = { worker, job: null };
    worker.on('message', (reply: Reply) => {
      const job = slot.job;
      slot.job = null;
      worker.unref();
      if (job !== null) {
        if ('error' in reply) job.reject(new Error(`bcrypt: ${reply.error}`));
        else job.resolve(reply.result);
      }
      dispatch();
    });
    worker.on('error', (error) => retire(slot, error));
    worker.on('exit', (code) => retire(slot, new Error(`bcrypt worker stopped with exit code ${code}`)));
    slots.add(slot);
    return slot;
  };

  // A worker that failed or stopped leaves the pool; its job, if any, fails with it.
  const retire = (slot: Slot, error: Error): void => {
    if (!slots.delete(slot)) return;
    slot.job?.reject(closed ? new Error('bcrypt pool is closed') : error);
    slot.job = null;
    if (!closed) dispatch();
  };

  return {
    hash: (input, cost) => submit({ op: 'hash', input, cost }) as Promise<string>,
    compare: (input, stored) => submit({ op: 'compare', input, stored }) as Promise<boolean>,
    get workers() {
      return slots.size;
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('bcrypt pool is closed'));
      await Promise.all([...slots].map((slot) => slot.worker.terminate()));
    },
  };
}
