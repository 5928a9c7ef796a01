import type { JsonQuery, JsonQueryEvaluator } from '../../probes/json-queries.js';
import { WorkerPool, workerFile } from '../workers/worker-pool.js';

/** One run's assertions, as the worker receives them. */
export interface JsonQueryJob {
  data: unknown;
  queries: readonly JsonQuery[];
}

/**
 * Evaluates checks' JSON queries on worker threads (json-query-worker.ts). An expression is
 * written by whoever writes checks, and one regular expression in it (`$match`, `$replace`,
 * `/.../`) can backtrack for ever in one step no guardrail of JSONata interrupts: on a worker,
 * the run's time limit stops it, the run fails saying so, and the event loop never waits.
 */
export class JsonQueryPool {
  readonly #pool: WorkerPool<JsonQueryJob, string | null, number>;
  readonly #timeoutMs: number;

  constructor(options: { workers: number; timeoutMs: number }) {
    this.#timeoutMs = options.timeoutMs;
    this.#pool = new WorkerPool({ entry: workerFile(import.meta.url, './json-query-worker.js'), size: options.workers });
  }

  /** The evaluator the probes are given (ProbeContext.jsonQueries). */
  readonly evaluate: JsonQueryEvaluator = async (data, queries, signal) => {
    let current = 0;
    const outcome = await this.#pool.run(
      { data, queries },
      {
        deadlineMs: this.#timeoutMs,
        signal,
        onProgress: (index) => {
          current = index;
        },
      },
    );
    if (outcome.ok) return outcome.value ?? undefined;
    const expression = queries[current]?.expression ?? '';
    switch (outcome.reason) {
      case 'timeout':
        return `JSON query ${expression} took too long (over ${this.#timeoutMs} ms) and was stopped: a pattern or expression in it runs too long`;
      case 'cancelled':
        return `JSON query ${expression} was stopped: the run ended`;
      default:
        return `JSON query ${expression} could not be evaluated: ${outcome.error ?? 'the worker failed'}`;
    }
  };

  /** Stops the workers. */
  close(): Promise<void> {
    return this.#pool.close();
  }
}
