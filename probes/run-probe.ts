import { upsideDown } from './upside-down.js';
import type { CheckDefinition } from '../checks/index.js';
import type { EgressPolicy } from './egress.js';
import type { JsonQueryEvaluator } from './json-queries.js';
import { ProbeFailure, type Probe, type ProbeResult } from './probe.js';
import { failureMessage } from './failure-message.js';
import { createProbeCaches, type ProbeCaches } from './probe-caches.js';
import { loadProbe } from './registry.js';
import type { ProbeSlots } from './run-slots.js';
import { withoutSecretPieces } from './secret-pieces.js';

/** What the runner (or the CLI, or a test) hands `runProbe` besides the check. */
export interface RunProbeOptions {
  egress: EgressPolicy;
  /** Secret values substituted into the check: redacted from any message. */
  secretValues?: readonly string[];
  now?: () => number;
  /**
   * Bounds on runs under way at once, by check type (the daemon bounds browser runs): a run
   * waits for a slot within its own deadline, so a run that waits too long is a timeout.
   */
  slots?: ProbeSlots;
  /** What probes keep between runs: the runner passes its own; without it, this run gets a fresh one. */
  caches?: ProbeCaches;
  /** Where JSON assertions are evaluated (see ProbeContext.jsonQueries). */
  jsonQueries?: JsonQueryEvaluator;
}

const MAX_MESSAGE = 200;

/**
 * Why a run's signal is aborted once its probe is done (tearing down whatever it left open): one
 * error for every run, since capturing a stack per run cost more than the rest of a fast run's teardown.
 */
const PROBE_FINISHED = new ProbeFailure('probe finished');

/**
 * Runs one check once with its type's probe: enforces `thresholds.timeoutMs` (the probe's
 * signal aborts and its connections are torn down), applies `degradedResponseMs` and `invert`,
 * and turns any failure into a short message with no credential in it.
 */
export async function runProbe(check: CheckDefinition, options: RunProbeOptions): Promise<ProbeResult> {
  const now = options.now ?? Date.now;
  const { timeoutMs, degradedResponseMs } = check.thresholds;
  // The first run of a type loads its module: that time is not the target's, so the clock
  // and the deadline start once the probe is loaded.
  let probe: Probe;
  try {
    probe = await loadProbe(check.type);
  } catch (error) {
    return { status: 'down', latencyMs: 0, message: redact(failureMessage(error), options.secretValues ?? []) };
  }
  const started = now();
  const controller = new AbortController();
  const slots = options.slots?.[check.type];
  let waitingForSlot = slots !== undefined;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new ProbeFailure(
        waitingForSlot ? `timeout after ${timeoutMs} ms waiting for a ${check.type} slot (limit ${slots!.limit} at once)` : `timeout after ${timeoutMs} ms`,
      );
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  // The race may already be settled when the deadline passes: nobody else awaits it.
  deadline.catch(() => {});
  let ok: boolean;
  let message: string;
  let latencyMs: number | undefined;
  try {
    const run = async () => {
      // The slot is given back when the probe has finished, its teardown included.
      const release = slots ? await slots.acquire(controller.signal) : undefined;
      waitingForSlot = false;
      try {
        return await probe.run(check as never, {
          signal: controller.signal,
          timeoutMs,
          egress: options.egress,
          now,
          caches: options.caches ?? createProbeCaches(),
          secretValues: options.secretValues ?? [],
          jsonQueries: options.jsonQueries,
        });
      } finally {
        release?.();
      }
    };
    const success = await Promise.race([run(), deadline]);
    ok = true;
    message = success.message ?? 'ok';
    latencyMs = success.latencyMs;
  } catch (error) {
    ok = false;
    message = failureMessage(error);
  } finally {
    clearTimeout(timer);
    if (!controller.signal.aborted) controller.abort(PROBE_FINISHED);
  }
  const elapsed = Math.max(0, Math.round(latencyMs ?? now() - started));
  const invert = (check.config as { invert?: boolean }).invert === true;
  if (invert) ({ ok, message } = upsideDown(ok, message));
  const status = !ok ? 'down' : degradedResponseMs !== undefined && elapsed > degradedResponseMs ? 'degraded' : 'up';
  if (status === 'degraded') message = `slow: ${elapsed} ms, above ${degradedResponseMs} ms`;
  return { status, latencyMs: elapsed, message: redact(message, options.secretValues ?? []) };
}

/**
 * Removes credentials from a message: user info in URLs, every part holding a piece of one of
 * the check's secret values in any common encoding (see secret-pieces.ts), and over-long tails.
 */
export function redact(message: string, secretValues: readonly string[]): string {
  let text = withoutSecretPieces(message.replace(/(\/\/)[^/\s@]*@/g, '$1'), secretValues);
  text = text.replace(/[\p{Cc}]+/gu, ' ').trim();
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
}
