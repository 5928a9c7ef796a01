import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../daemon/clock.js';
import { RUN_BEAT_MS } from '../../../daemon/runner/beat.js';
import { ensureStates } from '../../../daemon/runner/check-states.js';
import type { Runner } from '../../../daemon/runner/runner.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { testRunner, until } from '../../support/runner.js';

/** How long the target takes to answer each request. */
const ANSWER_AFTER_MS = 300;
const CHECKS = 5;

// A runner whose concurrency is taken looks for due runs again as soon as a run ends and makes
// room (daemon/runner/runner.ts, `roomMade`), not on the beat after next: with room for one run
// and five checks due, each run starts right after the one before it ended.
describe.each(DATABASE_KINDS)('a runner with no room looks again when a run ends [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  let target: Server;
  let runner: Runner | undefined;
  /** When each request came in, and when its answer was sent. */
  const requests: Array<{ came: number; answered?: number }> = [];

  beforeAll(async () => {
    target = createServer((_req, res) => {
      const request: { came: number; answered?: number } = { came: performance.now() };
      requests.push(request);
      setTimeout(() => {
        request.answered = performance.now();
        res.end('ok');
      }, ANSWER_AFTER_MS);
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
  });
  afterAll(async () => {
    await runner?.stop();
    await daemon?.stop();
    target?.closeAllConnections();
    target?.close();
  });

  it('starts the next due run within a beat of the last one ending', async () => {
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    for (let i = 0; i < CHECKS; i++) {
      const created = await daemon.request('POST', '/orgs/default/checks', {
        token: admin,
        body: { name: `slow ${i}`, slug: `slow-${i}`, type: 'http', intervalSeconds: 3600, target: url, thresholds: { timeoutMs: 5000 } },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    const now = Date.now();
    await ensureStates(daemon.deps.db.kysely, now);
    await daemon.deps.db.kysely
      .updateTable('check_states')
      .set({ next_run_at: now - 1000 })
      .execute();

    runner = testRunner(daemon, systemClock, { concurrency: 1, orgSharePercent: 100 });
    runner.start();
    await until(() => requests.length === CHECKS && requests.every((request) => request.answered !== undefined), 20_000);
    expect(requests).toHaveLength(CHECKS);

    // From an answer to the next request: the run's end, a claim, and the start of the run (about
    // 10 ms here). Looking again only on the runner's own rhythm, it is up to two beats (about
    // half a beat in the median here).
    const gaps = requests.slice(1).map((request, i) => request.came - requests[i].answered!);
    const median = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)];
    expect(median, `gaps ${gaps.map((gap) => gap.toFixed(0)).join(', ')} ms`).toBeLessThan(RUN_BEAT_MS / 3);
  }, 40_000);
});
