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
