import { Runner } from '../../daemon/runner/runner.js';
import type { Clock } from '../../daemon/clock.js';
import type { TestDaemon } from './daemon.js';

/** A runner on a test daemon's database, driven by `tick()` with the given (injected) clock. */
export function testRunner(daemon: TestDaemon, clock: Clock, config: Partial<TestDaemon['deps']['config']['runner']> = {}): Runner {
  const { db, logger, egress, probeSlots, keyring, metrics, caches } = daemon.deps;
  return new Runner({
    db,
    clock,
    logger,
    egress,
    probeSlots,
    keyring,
    metrics,
    probeCaches: caches.probes,
    jsonQueries: caches.jsonQueries.evaluate,
    config: { ...daemon.deps.config.runner, ...config },
  });
}

/** The token at the end of a ping URL. */
export const tokenOf = (pingUrl: string): string => pingUrl.slice(pingUrl.lastIndexOf('/') + 1);

/**
 * Waits, looking every `stepMs`, until `done` answers true or `timeoutMs` has passed: the test's
 * own assertions then say what did not happen. For runners on the system clock.
 */
export async function until(done: () => boolean | Promise<boolean>, timeoutMs = 10_000, stepMs = 20): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await done()) && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, stepMs));
}
