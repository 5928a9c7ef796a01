/**
 * A long-lived worker thread serving many jobs at once (the runner's probe threads): the jobs
 * asked for in one turn of the event loop go to it in one message, and its answers come back
 * the same way (serve-batches.ts), so the hundreds of runs of one beat cost two messages, not
 * hundreds; or, with `collectEveryMs`, they wait in shared memory for the owner to collect them
 * when it is awake anyway (answer-mailbox.ts), and cost no message at all. Unlike a WorkerPool's jobs, these have no deadline here: the worker bounds each
 * job itself. A worker that fails fails the jobs it held, and a fresh one serves the next.
 */
import { Worker } from 'node:worker_threads';
import { AnswerMailbox } from './answer-mailbox.js';

/** One job as the worker receives it, in a batch. */
export type BatchedRequest<Request> = [id: number, request: Request];
/** One answer as the worker sends it back, in a batch. */
export type BatchedReply<Response> = [id: number, ok: true, value: Response] | [id: number, ok: false, error: string];
/** What the worker posts: a batch of answers, or `null`, word that answers wait in its mailbox. */
export type BatchedMessage<Response> = BatchedReply<Response>[] | null;
/** The first message a worker gets when its answers go to a mailbox (`collectEveryMs`). */
export interface BatchedMailbox {
  mailbox: SharedArrayBuffer;
  /** How long answers may wait unread before the worker posts word of them. */
  nudgeAfterMs: number;
}

export interface BatchedWorkerOptions {
  /** The compiled entry (see `workerFile` in worker-pool.ts); it calls `serveBatches`. */
  entry: URL;
  workerData?: unknown;
  /** The worker's environment; by default none of the daemon's (its secrets included). */
  env?: Record<string, string>;
  /**
   * When set, the owner calls `collect()` at least this often while jobs are under way (the
   * runner, on its beat), and the answers wait for it in shared memory (answer-mailbox.ts)
   * instead of waking this thread with a message. Answers left unread twice as long, or more
   * than a few dozen of them, still come with a message.
   */
  collectEveryMs?: number;
}

type Waiting<Response> = { resolve: (value: Response) => void; reject: (error: Error) => void };

export class BatchedWorker<Request, Response> {
  readonly #options: BatchedWorkerOptions;
  readonly #waiting = new Map<number, Waiting<Response>>();
  #outbox: BatchedRequest<Request>[] = [];
  #worker: Worker | undefined;
  #mailbox: AnswerMailbox | undefined;
  #nextId = 1;
  #closed = false;

  constructor(options: BatchedWorkerOptions) {
    this.#options = options;
  }

  /** Jobs asked for and not answered yet. */
  get pending(): number {
    return this.#waiting.size;
  }

  /** Runs `request` on the worker; rejects when the worker fails or is closed before it answers. */
  run(request: Request): Promise<Response> {
    if (this.#closed) return Promise.reject(new Error('the worker is closed'));
    return new Promise((resolve, reject) => {
      const id = this.#nextId++;
      this.#waiting.set(id, { resolve, reject });
      if (this.#outbox.push([id, request]) === 1) setImmediate(() => this.#flush());
    });
  }

  /** Settles the jobs whose answers wait in the mailbox (`collectEveryMs`). */
  collect(): void {
    const mailbox = this.#mailbox;
    if (!mailbox) return;
    for (const batch of mailbox.take()) this.#answer(batch as BatchedReply<Response>[]);
  }

  /** Starts the thread now, so the first jobs do not wait for it and its modules. */
  start(): void {
    if (!this.#closed) this.#ensureWorker();
  }

  /** Stops the thread; jobs not answered yet are rejected. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#outbox = [];
    const worker = this.#worker;
    this.#worker = undefined;
    this.#mailbox = undefined;
    this.#failAll(new Error('the worker is closed'));
    await worker?.terminate();
  }

  #flush(): void {
    const batch = this.#outbox;
    this.#outbox = [];
    if (batch.length === 0 || this.#closed) return;
    let worker: Worker;
    try {
      worker = this.#ensureWorker();
    } catch (error) {
      for (const [id] of batch) this.#settle(id)?.reject(error as Error);
      return;
    }
    try {
      worker.postMessage(batch);
    } catch (error) {
      // A request that cannot be copied to the thread (none of the runner's): its batch fails, the thread stays.
      for (const [id] of batch) this.#settle(id)?.reject(error as Error);
      return;
    }
    // Working: the thread keeps the process alive until its jobs are answered.
    worker.ref();
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.#options.entry, { workerData: this.#options.workerData, env: this.#options.env ?? {} });
    worker.unref();
    const { collectEveryMs = 0 } = this.#options;
    const mailbox = collectEveryMs > 0 ? new AnswerMailbox() : undefined;
    if (mailbox) worker.postMessage({ mailbox: mailbox.buffer, nudgeAfterMs: 2 * collectEveryMs } satisfies BatchedMailbox);
    worker.on('message', (message: BatchedMessage<Response>) => {
      if (message) this.#answer(message);
      else this.collect();
    });
    const lost = (why: string) => {
      if (this.#worker !== worker) return;
      // What it answered before it was lost still counts.
      this.collect();
      this.#worker = undefined;
      this.#mailbox = undefined;
      this.#failAll(new Error(why));
    };
    worker.on('error', (error) => lost(`the worker failed: ${error.message}`));
    worker.once('exit', (code) => lost(`the worker stopped with exit code ${code}`));
    this.#worker = worker;
    this.#mailbox = mailbox;
    return worker;
  }

  #answer(replies: BatchedReply<Response>[]): void {
    for (const reply of replies) {
      const waiting = this.#settle(reply[0]);
      if (!waiting) continue;
      if (reply[1]) waiting.resolve(reply[2]);
      else waiting.reject(new Error(reply[2]));
    }
    if (this.#waiting.size === 0) this.#worker?.unref();
  }

  #settle(id: number): Waiting<Response> | undefined {
    const waiting = this.#waiting.get(id);
    this.#waiting.delete(id);
    return waiting;
  }

  #failAll(error: Error): void {
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const { reject } of waiting) reject(error);
  }
}
