import type { ImportSource } from '../../importers/index.js';
import { WorkerPool, workerFile } from '../workers/worker-pool.js';
import type { ConversionAnswer, ConversionBatch, ConversionJob } from './convert-off-thread.js';

/** A pool of one conversion worker (convert-off-thread.ts). */
export type ConversionPool = WorkerPool<ConversionJob, ConversionAnswer, ConversionBatch>;

/** What a conversion worker is started with: the source whose converter it loads while it waits for its job. */
export interface ConversionWorkerData {
  preload?: ImportSource;
}

/**
 * The worker's entry: conversion-worker.ts as one bundle (scripts/bundle-conversion-worker.mjs),
 * which a fresh worker loads without resolving and linking each module it is made of.
 */
export const CONVERSION_WORKER_ENTRY = workerFile(import.meta.url, '../../bundles/conversion-worker/conversion-worker.js');

/** A new pool of one worker for one conversion, its heap bounded by `memoryMb`. */
export function conversionPool(memoryMb: number, workerData: ConversionWorkerData = {}): ConversionPool {
  return new WorkerPool<ConversionJob, ConversionAnswer, ConversionBatch>({
    entry: CONVERSION_WORKER_ENTRY,
    size: 1,
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(4, memoryMb / 8)) },
    // The converter has no use for the daemon's environment (its secrets included).
    env: {},
  });
}

/** How long a worker that converted an import waits for the next one of its organization (the apply after a preview). */
export const WARM_WORKER_MS = 120_000;

type Spare = { pool: ConversionPool; memoryMb: number; org?: string; expiry?: NodeJS.Timeout };

/**
 * The conversion workers of one app: at most one spare worker beside those converting. Nothing
 * is started before the first import. A worker whose conversion came back whole waits for the
 * next import of the same organization (most often the apply after a preview), already started
 * and with its code compiled, and answers the same bytes from its last conversion
 * (conversion-worker.ts): a worker never converts two organizations' imports. Otherwise, or
 * once it has waited WARM_WORKER_MS, it is stopped, and a fresh worker is started ahead for the
 * next import of any organization, loading the converter of the same source while it waits.
 */
export class ConversionWorkers {
  readonly #warmMs: number;
  #spare?: Spare;
  #closed = false;

  constructor(options: { warmMs?: number } = {}) {
    this.#warmMs = options.warmMs ?? WARM_WORKER_MS;
  }

  /** The pool for one conversion of `org`: the spare when it has the same limit and is fresh or that organization's, else a new one. */
  take(memoryMb: number, org: string): ConversionPool {
    const spare = this.#spare;
    this.#spare = undefined;
    clearTimeout(spare?.expiry);
    if (spare && spare.memoryMb === memoryMb && (spare.org === undefined || spare.org === org)) return spare.pool;
    void spare?.pool.close();
    return conversionPool(memoryMb);
  }

  /**
   * After `org`'s conversion of `source` on `pool`: keeps the worker for that organization's next
   * import when its conversion came back `whole`, else stops it and starts a fresh one ahead.
   */
  release(pool: ConversionPool, memoryMb: number, source: ImportSource, org: string, whole: boolean): void {
    if (this.#closed || this.#spare || !whole || pool.workers === 0) {
      void pool.close();
      this.prepare(memoryMb, source);
      return;
    }
    const expiry = setTimeout(() => {
      if (this.#spare?.pool !== pool) return;
      this.#spare = undefined;
      void pool.close();
      this.prepare(memoryMb, source);
    }, this.#warmMs);
    expiry.unref();
    this.#spare = { pool, memoryMb, org, expiry };
  }

  /** Starts a fresh worker for the next conversion, loading the converter of `source`, unless a spare waits already. */
  prepare(memoryMb: number, source: ImportSource): void {
    if (this.#closed || this.#spare) return;
    const pool = conversionPool(memoryMb, { preload: source });
    pool.startWorker();
    this.#spare = { pool, memoryMb };
  }

  /** Whether a spare worker waits, fresh or an organization's. */
  get hasSpare(): boolean {
    return this.#spare !== undefined;
  }

  /** Stops the spare worker; nothing is started after. */
  async close(): Promise<void> {
    this.#closed = true;
    const spare = this.#spare;
    this.#spare = undefined;
    clearTimeout(spare?.expiry);
    await spare?.pool.close();
  }
}
