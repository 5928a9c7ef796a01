import type { CheckDefinition, CheckTypeName } from '../checks/index.js';
import type { EgressPolicy } from './egress.js';
import type { ProbeCaches } from './probe-caches.js';
import type { JsonQueryEvaluator } from './json-queries.js';

/** How one run of a check ended. */
export type ProbeStatus = 'up' | 'degraded' | 'down';

/** The outcome of one run, as the runner stores it. */
export interface ProbeResult {
  status: ProbeStatus;
  /** Wall time of the probe, in whole milliseconds. */
  latencyMs: number;
  /** Short and human: why it is down, or what was seen when up. Never a credential. */
  message: string;
}

/** What a probe gets besides the check: the deadline, the egress policy and a clock. */
export interface ProbeContext {
  /** Aborted when `thresholds.timeoutMs` passes; a probe tears its connections down on it. */
  signal: AbortSignal;
  /** The time budget, for drivers that take a timeout option instead of a signal. */
  timeoutMs: number;
  /** Every outbound connection resolves its host through this policy. */
  egress: EgressPolicy;
  /** Milliseconds since the epoch (injectable for tests). */
  now(): number;
  /** What probes keep between runs (the RDAP bootstrap file, compiled JSON queries). */
  caches: ProbeCaches;
  /**
   * The secret values substituted into the check: whatever holds one is a credential, sent only
   * to the origin it was written for.
   */
  secretValues?: readonly string[];
  /** Where JSON assertions are evaluated (the daemon's worker pool, with a time limit); this thread when absent. */
  jsonQueries?: JsonQueryEvaluator;
}

/**
 * What a probe reports when the target answered as expected. `latencyMs` overrides the measured
 * wall time when the probe knows better (for example the time to the first response byte).
 */
export interface ProbeSuccess {
  message?: string;
  latencyMs?: number;
}

/**
 * One check type's executor: a function of the check (with its secrets already substituted) and
 * the context. It resolves when the target is healthy and throws a `ProbeFailure` (or any error,
 * which is turned into a short message) when it is not.
 */
export interface Probe<T extends CheckTypeName = CheckTypeName> {
  readonly type: T;
  run(check: CheckDefinition<T>, context: ProbeContext): Promise<ProbeSuccess>;
}

/** A failure whose message is safe and meant to be shown as the result's message. */
export class ProbeFailure extends Error {
  override readonly name = 'ProbeFailure';
}

/** Declares a probe; exists so the check's config type is inferred from the type name. */
export const defineProbe = <T extends CheckTypeName>(probe: Probe<T>): Probe<T> => Object.freeze(probe);
