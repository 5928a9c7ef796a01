import type { CheckDefinition } from '../../checks/index.js';
import type { EgressOptions } from '../../probes/egress.js';
import type { ProbeResult } from '../../probes/probe.js';
import { BatchedWorker } from '../workers/batched-worker.js';
import { workerFile } from '../workers/worker-pool.js';
import { RUN_BEAT_MS } from './beat.js';

/** One run as a probe thread receives it: the check with its secrets already substituted. */
export interface ProbeThreadJob {
  check: CheckDefinition;
  secretValues: readonly string[];
}

/** What every probe thread starts with: the egress policy's settings (the policy is made again there). */
export interface ProbeThreadSetup {
  egress: EgressOptions;
}

/**
 * Whether a check's runs may go to a probe thread: HTTP and TCP checks, whose run is socket work
 * and a substring search at most. An HTTP check with JSON queries stays on the daemon's thread,
 * whose query workers stop a runaway expression at its time limit.
 */
export function runsOnProbeThread(check: CheckDefinition): boolean {
  if (check.type === 'tcp') return true;
  return check.type === 'http' && check.config.jsonQueries.length === 0;
}

/**
 * Worker threads that run HTTP and TCP probes beside the daemon's thread (probe-thread-worker.ts),
 * so that a runner uses more than one core: its own thread keeps the claims, the schedule and the
 * result writer. A beat's runs go to a thread in one message, and their results come back together,
 * left in shared memory for the runner to read on its next beat (answer-mailbox.ts).
 * Each thread has its own egress policy, made from the same settings, and its own
 * connections; a run's timeout is enforced where it runs.
 */
export class ProbeThreads {
  readonly #threads: BatchedWorker<ProbeThreadJob, ProbeResult>[];

  constructor(options: { threads: number; egress: EgressOptions }) {
    const setup: ProbeThreadSetup = { egress: options.egress };
    const entry = workerFile(import.meta.url, './probe-thread-worker.js');
    this.#threads = Array.from(
      { length: options.threads },
      () => new BatchedWorker<ProbeThreadJob, ProbeResult>({ entry, workerData: setup, collectEveryMs: RUN_BEAT_MS }),
    );
  }

  /** Settles the runs whose results wait in the threads' mailboxes: the runner calls it on every beat. */
  collect(): void {
    for (const thread of this.#threads) thread.collect();
  }

  /** Starts the threads now, so the first runs do not wait for them. */
  start(): void {
    for (const thread of this.#threads) thread.start();
  }

  /** Runs a prepared check on the thread with the fewest runs under way. Never rejects: a thread that fails answers `down`. */
  async run(check: CheckDefinition, secretValues: readonly string[]): Promise<ProbeResult> {
    let thread = this.#threads[0];
    for (const candidate of this.#threads) if (candidate.pending < thread.pending) thread = candidate;
    try {
      return await thread.run({ check, secretValues });
    } catch (error) {
      return { status: 'down', latencyMs: 0, message: `the probe thread could not run the check: ${(error as Error).message}` };
    }
  }

  /** Stops the threads; runs under way on them end `down`. */
  async close(): Promise<void> {
    await Promise.all(this.#threads.map((thread) => thread.close()));
  }
}
