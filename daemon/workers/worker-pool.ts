/**
 * Worker threads for work that must not hold the daemon's event loop: user-written regular
 * expressions and JSONata, password hashes, SAML responses, import conversions. A worker is a
 * typed module (its entry calls `serveWorker`, see serve-worker.ts) started from the compiled
 * tree; each job gets a deadline, and a worker that overruns it (or whose job is cancelled) is
 * terminated, which stops even a regular expression in the middle of its work, and a fresh one
 * serves the next job.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest } from './serve-worker.js';

/**
 * The compiled worker entry `relative` to the module at `moduleUrl` (pass `import.meta.url`).
 * Run from dist/ it sits beside that module; loaded from the TypeScript sources (the test
 * runner), the worker still runs the compiled copy, because a worker thread cannot load
 * TypeScript: build first (`node scripts/build.mjs`).
 */
export function workerFile(moduleUrl: string, relative: string): URL {
  const file = new URL(relative, moduleUrl);
  if (!moduleUrl.endsWith('.ts')) return file;
  const root = new URL('../../', import.meta.url);
  return new URL(`dist/${file.href.slice(root.href.length)}`, root);
}

/** How a job ended when it brought no answer. */
export type JobFailure = 'timeout' | 'cancelled' | 'failed';

/** A job's answer, or why there is none (`error`: the worker's own words when it failed). */
export type JobOutcome<Response> = { ok: true; value: Response } | { ok: false; reason: JobFailure; error?: string; code?: string };

export interface WorkerPoolOptions {
  /** The compiled entry (see `workerFile`). */
  entry: URL;
  /** The most workers running at once; further jobs wait their turn. */
  size: number;
  resourceLimits?: ResourceLimits;
  workerData?: unknown;
  /** The worker's environment; by default none of the daemon's (its secrets included). */
  env?: Record<string, string>;
}

export interface JobOptions<Progress> {
  /** The longest the job may run once a worker has it (waiting for a worker is not counted); no limit when absent. */
  deadlineMs?: number;
  /** Whether starting the worker counts against the deadline (by default the clock starts once it runs). */
  countStartup?: boolean;
  /** Cancels the job, waiting or running. */
  signal?: AbortSignal;
  /** Each progress report the worker sends while it works. */
  onProgress?: (progress: Progress) => void;
}

type Slot = { worker: Worker; online: boolean; busy: boolean };
type Job<Request, Response, Progress> = {
  id: number;
  request: Request;
  options: JobOptions<Progress>;
  settle: (outcome: JobOutcome<Response>) => void;
};

/** A bounded set of workers running one kind of job, each job with a deadline. */
export class WorkerPool<Request, Response, Progress = never> {
  readonly #options: WorkerPoolOptions;
  readonly #slots = new Set<Slot>();
  readonly #queue: Job<Request, Response, Progress>[] = [];
  #nextId = 1;
  #closed = false;

  constructor(options: WorkerPoolOptions) {
    this.#options = options;
  }

  /** Runs `request` on a worker: its answer, or why there is none. Never rejects. */
  run(request: Request, options: JobOptions<Progress>): Promise<JobOutcome<Response>> {
    if (this.#closed) return Promise.resolve({ ok: false, reason: 'failed', error: 'the worker pool is closed' });
    if (options.signal?.aborted) return Promise.resolve({ ok: false, reason: 'cancelled' });
    return new Promise((resolve) => {
      const job: Job<Request, Response, Progress> = { id: this.#nextId++, request, options, settle: resolve };
      const onAbort = () => {
        // Still waiting: it leaves the queue. Running: the running job's own listener stops it.
        const at = this.#queue.indexOf(job);
        if (at !== -1) {
          this.#queue.splice(at, 1);
          resolve({ ok: false, reason: 'cancelled' });
        }
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      job.settle = (outcome) => {
        options.signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      this.#queue.push(job);
      this.#dispatch();
    });
  }

  /**
   * Starts a worker now, when none is alive, so that the first job does not wait for a thread to
   * start and load its modules. It keeps no process alive while it waits.
   */
  startWorker(): void {
    if (this.#closed || this.#slots.size > 0) return;
    try {
      this.#spawn().worker.unref();
    } catch {
      // Started again, and its failure reported, with the first job.
    }
  }

  /** Worker threads alive now. */
  get workers(): number {
    return this.#slots.size;
  }

  /** Stops every worker; jobs waiting or running end as `failed`. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.settle({ ok: false, reason: 'failed', error: 'the worker pool is closed' });
    await Promise.all([...this.#slots].map((slot) => slot.worker.terminate()));
    this.#slots.clear();
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      let slot = [...this.#slots].find((candidate) => !candidate.busy);
      if (!slot && this.#slots.size >= this.#options.size) return;
      const job = this.#queue.shift()!;
      try {
        slot ??= this.#spawn();
      } catch (error) {
        job.settle({ ok: false, reason: 'failed', error: (error as Error).message });
        continue;
      }
      this.#start(slot, job);
    }
  }

  #spawn(): Slot {
    const worker = new Worker(this.#options.entry, {
      workerData: this.#options.workerData,
      resourceLimits: this.#options.resourceLimits,
      env: this.#options.env ?? {},
    });
    const slot: Slot = { worker, online: false, busy: false };
    worker.once('online', () => {
      slot.online = true;
    });
    // A worker that fails between jobs (out of memory) is replaced at the next one.
    const drop = () => {
      this.#slots.delete(slot);
    };
    worker.on('error', drop);
    worker.once('exit', drop);
    this.#slots.add(slot);
    return slot;
  }

  #start(slot: Slot, job: Job<Request, Response, Progress>): void {
    const { worker } = slot;
    slot.busy = true;
    worker.ref();
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (outcome: JobOutcome<Response>, stop: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      worker.off('online', startClock);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      job.options.signal?.removeEventListener('abort', onAbort);
      if (stop) {
        // Whatever still runs is stopped; a fresh worker serves the next job.
        this.#slots.delete(slot);
        void worker.terminate();
      } else {
        slot.busy = false;
        // Idle: never keep the process alive for it.
        worker.unref();
      }
      job.settle(outcome);
      this.#dispatch();
    };
    const onMessage = (reply: WorkerReply<Response, Progress>) => {
      if (reply.id !== job.id) return;
      if ('progress' in reply) {
        job.options.onProgress?.(reply.progress);
        // A paced worker sends its next report once this one is read (serve-worker.ts). Said after a
        // turn: a port reads on in the same turn what arrives while it reads.
        if (reply.paced) {
          setImmediate(() => {
            if (!done) worker.postMessage({ id: job.id, read: true } satisfies WorkerRequest<Request>);
          });
        }
      } else if ('value' in reply) finish({ ok: true, value: reply.value }, false);
      else finish({ ok: false, reason: 'failed', error: reply.error }, false);
    };
    const onError = (error: Error & { code?: string }) => finish({ ok: false, reason: 'failed', error: error.message, code: error.code }, true);
    const onExit = (code: number) => finish({ ok: false, reason: 'failed', error: `the worker stopped with exit code ${code}` }, true);
    const onAbort = () => finish({ ok: false, reason: 'cancelled' }, true);
    // The clock starts once the worker runs: starting a thread is not the job's time.
    function startClock() {
      const { deadlineMs } = job.options;
      if (deadlineMs !== undefined) timer = setTimeout(() => finish({ ok: false, reason: 'timeout' }, true), deadlineMs);
    }
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    job.options.signal?.addEventListener('abort', onAbort, { once: true });
    if (slot.online || job.options.countStartup) startClock();
    else worker.once('online', startClock);
    const message: WorkerRequest<Request> = { id: job.id, request: job.request };
    worker.postMessage(message);
  }
}
