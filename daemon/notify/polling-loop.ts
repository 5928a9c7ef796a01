import type { FailureLog } from '../failure-log.js';

/** A running outbox loop of one daemon. */
export interface PollingLoop {
  /** Stops leasing and waits for the round under way. */
  stop(): Promise<void>;
}

/**
 * Runs `round` (lease a batch of due messages and deliver them; answers how many it leased) over
 * and over until stopped: a full batch is followed at once by the next, otherwise the loop sleeps
 * `intervalMs`, and stopping wakes it. A round that throws is told to `failures` (unless the
 * loop is stopping) and the loop sleeps as after a short batch. `round` is handed a way to tell
 * whether the loop is stopping. Shared by the notification dispatcher and the subscriber mailer.
 */
export function startPollingLoop(options: {
  batch: number;
  intervalMs: number;
  round: (isStopping: () => boolean) => Promise<number>;
  /** Where failed rounds, and the first good one after them, are logged. */
  failures: FailureLog;
}): PollingLoop {
  let stopped = false;
  let wake: (() => void) | undefined;

  const loop = (async () => {
    while (!stopped) {
      let leased = 0;
      try {
        leased = await options.round(() => stopped);
        options.failures.succeeded();
      } catch (error) {
        if (!stopped) options.failures.failed(error as Error);
      }
      if (leased < options.batch && !stopped) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.intervalMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
    }
  })();

  return {
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
