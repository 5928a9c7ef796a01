/**
 * Matches an address against e-mail patterns on a worker thread: the organizations'
 * registration patterns and the operator's SVC_AUTH_REGISTRATION_EMAIL_PATTERN. Patterns are
 * written by people, so one with catastrophic backtracking must stall neither the daemon's
 * event loop nor a sign-up for long: each pattern gets PER_PATTERN_MS on the worker, and one
 * call gets TOTAL_MS in all, after which the worker is terminated (which stops even a regular
 * expression in the middle of its work) and a fresh one serves the next call.
 */
import { WorkerPool, workerFile } from '../workers/worker-pool.js';

/** What became of one pattern: `skipped` when the call's total time ran out before it. */
export type PatternOutcome = 'match' | 'no-match' | 'timeout' | 'invalid' | 'skipped';

/** The longest one pattern may take to match one address. */
export const PER_PATTERN_MS = 50;
/** The longest matching one address against every pattern may take. */
export const TOTAL_MS = 500;

/** One call, as the worker receives it. */
export interface PatternJob {
  email: string;
  patterns: string[];
  flags: string;
  perPatternMs: number;
}

/** What the worker reports after each pattern (`index` into the patterns it was sent). */
export interface PatternProgress {
  index: number;
  outcome: Exclude<PatternOutcome, 'skipped'>;
}

// Bounded: cleared when full, which only costs the ordering.
const HISTORY_SIZE = 1000;
const TRY_RANK = { fast: 0, unseen: 1, slow: 2 } as const;

/**
 * The matcher of one app (AppDeps.caches): its worker, and how each pattern fared lately, to
 * order the next call: patterns that answered in time first, patterns not seen yet next
 * (shuffled, so that every one of them is reached within a few calls), patterns that ran out of
 * time last. So hostile patterns, once met, can no longer use up a call's time before the
 * ordinary ones are tried.
 */
export class PatternMatcher {
  // One worker: calls run one at a time, each with at most TOTAL_MS once the worker is up.
  // A small heap: the worker holds one address and a few hundred short patterns at most.
  readonly #pool = new WorkerPool<PatternJob, null, PatternProgress>({
    entry: workerFile(import.meta.url, './pattern-worker.js'),
    size: 1,
    resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
  });
  readonly #history = new Map<string, 'fast' | 'slow'>();

  /**
   * Each pattern's outcome for `email`, in the order given. `flags` are the regular
   * expressions' flags (organization patterns ignore case: "i").
   */
  async match(email: string, patterns: string[], flags = 'i'): Promise<PatternOutcome[]> {
    if (patterns.length === 0) return [];
    // `order[i]` is the caller's index of the i-th pattern sent.
    const order = this.#triedOrder(patterns);
    const outcomes: PatternOutcome[] = patterns.map(() => 'skipped');
    await this.#pool.run(
      { email, patterns: order.map((index) => patterns[index]), flags, perPatternMs: PER_PATTERN_MS },
      {
        deadlineMs: TOTAL_MS,
        onProgress: ({ index, outcome }) => {
          outcomes[order[index]] = outcome;
        },
      },
    );
    for (const [index, outcome] of outcomes.entries()) {
      if (outcome === 'timeout') this.#remember(patterns[index], 'slow');
      else if (outcome === 'match' || outcome === 'no-match') this.#remember(patterns[index], 'fast');
    }
    return outcomes;
  }

  /** Stops the worker. */
  close(): Promise<void> {
    return this.#pool.close();
  }

  /** The indexes of `patterns` in the order to try them. */
  #triedOrder(patterns: string[]): number[] {
    const order = patterns.map((_, index) => index);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    const rankOf = (index: number) => TRY_RANK[this.#history.get(patterns[index]) ?? 'unseen'];
    return order.sort((a, b) => rankOf(a) - rankOf(b));
  }

  #remember(pattern: string, speed: 'fast' | 'slow'): void {
    if (this.#history.size >= HISTORY_SIZE && !this.#history.has(pattern)) this.#history.clear();
    this.#history.set(pattern, speed);
  }
}
