import type { Logger } from './log.js';

/** How often a loop that keeps failing is logged again, after its first failure. */
export const FAILURE_REMINDER_MS = 60_000;

/** What a loop that retries on its own tells its failure log. */
export interface FailureLog {
  /** A round failed: logged when it is the first since the last success, then once a minute. */
  failed(error: Error): void;
  /** A round worked: after failures, one line says since when it had failed and how often. */
  succeeded(): void;
}

/**
 * The log of a background loop that retries every few hundred milliseconds (claims, outboxes):
 * during an outage it logs the first failure, a reminder a minute with the count since, and one
 * line when it works again, instead of a line per attempt.
 */
export function failureLog(
  logger: Logger,
  messages: { failed: string; recovered: string },
  options: { level?: 'warn' | 'error'; now?: () => number } = {},
): FailureLog {
  const level = options.level ?? 'warn';
  const now = options.now ?? Date.now;
  let since: number | undefined;
  let attempts = 0;
  let loggedAt = 0;
  return {
    failed(error) {
      const at = now();
      attempts++;
      if (since === undefined) {
        since = at;
        loggedAt = at;
        logger[level]({ err: error.message }, messages.failed);
      } else if (at - loggedAt >= FAILURE_REMINDER_MS) {
        loggedAt = at;
        const seconds = Math.round((at - since) / 1000);
        logger[level]({ err: error.message, attempts, failingSeconds: seconds }, `${messages.failed} (${attempts} attempts in ${seconds} s)`);
      }
    },
    succeeded() {
      if (since === undefined) return;
      const seconds = Math.round((now() - since) / 100) / 10;
      logger.warn({ attempts, failingSeconds: seconds }, `${messages.recovered} (after ${attempts} failed attempts in ${seconds} s)`);
      since = undefined;
      attempts = 0;
    },
  };
}
