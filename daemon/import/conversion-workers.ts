import type { ImportSource } from '../../importers/index.js';
import { WorkerPool, workerFile } from '../workers/worker-pool.js';
import type { ConversionAnswer, ConversionBatch, ConversionJob } from './convert-off-thread.js';

/** A pool of one conversion worker (convert-off-thread.ts). */
export type ConversionPool = WorkerPool<ConversionJob, ConversionAnswer, ConversionBatch>;

/** What a conversion worker is started with: the source whose converter it loads while it waits for its job. */
export interface ConversionWorkerData {
  preload?: ImportSource;
}

/** A new pool of one worker for one conversion, its heap bounded by `memoryMb`. */
export function conversionPool(memoryMb: number, workerData: ConversionWorkerData = {}): ConversionPool {
  return new WorkerPool<ConversionJob, ConversionAnswer, ConversionBatch>({
    entry: workerFile(import.meta.url, './conversion-worker.js'),
    size: 1,
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(4, memoryMb / 8)) },
    // The converter has no use for the daemon's environment (its secrets included).
    env: {},
  });
}

/**
 * The conversion workers of one app. Every import still runs on a worker of its own, stopped
 * with it; once an import has run, the worker of the next one is started ahead and loads the
 * converter of the same source, so that the apply after a preview does not wait for a thread to
 * start and load the catalog and the converter (about a fifth of a second on a 2-core machine).
 * Nothing is started before the first import.
 */
export class ConversionWorkers {
  #ready?: { memoryMb: number; pool: ConversionPool };
  #closed = false;

  /** The pool for one conversion: the one started ahead when it has the same limit, else a new one. */
  take(memoryMb: number): ConversionPool {
    const ready = this.#ready;
    this.#ready = undefined;
    if (ready?.memoryMb === memoryMb) return ready.pool;
    void ready?.pool.close();
    return conversionPool(memoryMb);
  }

  /** Starts the worker of the next conversion, loading the converter of `source`, unless one is waiting already. */
  prepare(memoryMb: number, source: ImportSource): void {
    if (this.#closed || this.#ready) return;
    const pool = conversionPool(memoryMb, { preload: source });
    pool.startWorker();
    this.#ready = { memoryMb, pool };
  }

  /** Whether a worker has been started ahead. */
  get prepared(): boolean {
    return this.#ready !== undefined;
  }

  /** Stops the worker started ahead; nothing is started after. */
  async close(): Promise<void> {
    this.#closed = true;
    const ready = this.#ready;
    this.#ready = undefined;
    await ready?.pool.close();
  }
}
