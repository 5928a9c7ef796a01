import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { manualClock } from '../../daemon/clock.js';
import type { Runner } from '../../daemon/runner/runner.js';
import type { DatabaseKind } from './databases.js';
import { startTestDaemon, type TestDaemon } from './daemon.js';
import { startFakeReceivers, type FakeReceivers } from './fakes/notify-receivers.js';
import { testRunner } from './runner.js';

/**
 * What the suites of the engine start with: a daemon on a manual clock (2026-03-01 10:00 UTC)
 * and a runner driven by hand, a local HTTP target that answers the status the test sets, and a
 * default webhook channel to local receivers. All of it on loopback.
 */
export interface EngineSuite {
  readonly clock: ReturnType<typeof manualClock>;
  readonly daemon: TestDaemon;
  /** The admin's token. */
  readonly admin: string;
  readonly runner: Runner;
  /** Where the webhook channel delivers (`/hook`). */
  readonly receiver: FakeReceivers;
  /** The target's answer from now on (200 at first). */
  status: number;
  /** Creates an HTTP check of the target run every 30 s, down after one failure and up after one success; `fields` adds to it. */
  createCheck(name: string, fields?: Record<string, unknown>): Promise<void>;
  /** Moves the clock 30 s on and ticks the runner once: each check's next run. */
  nextRun(): Promise<void>;
  /** Stops the daemon, the receivers and the target. */
  stop(): Promise<void>;
}

export async function startEngineSuite(kind: DatabaseKind, options: { env?: Record<string, string> } = {}): Promise<EngineSuite> {
  const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
  const target = createServer((_req, res) => res.writeHead(suite.status).end());
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
  const receiver = await startFakeReceivers();
  const daemon = await startTestDaemon(kind, { clock, env: options.env });
  const admin = await daemon.adminToken();
  const runner = testRunner(daemon, clock);
  const channel = await daemon.request('POST', '/orgs/default/notification-channels', {
    token: admin,
    body: { name: 'hook', type: 'webhook', config: { url: `${receiver.url}/hook` }, default: true },
  });
  expect(channel.status).toBe(201);
  const suite: EngineSuite = {
    clock,
    daemon,
    admin,
    runner,
    receiver,
    status: 200,
    async createCheck(name, fields = {}) {
      const created = await daemon.request('POST', '/orgs/default/checks', {
        token: admin,
        body: {
          name,
          type: 'http',
          intervalSeconds: 30,
          target: targetUrl,
          thresholds: { failuresBeforeDown: 1, successesBeforeUp: 1, timeoutMs: 2000 },
          ...fields,
        },
      });
      expect(created.status).toBe(201);
    },
    async nextRun() {
      clock.advance(30_000);
      await runner.tick();
    },
    async stop() {
      await daemon.stop();
      await receiver.close();
      await new Promise<void>((resolve) => target.close(() => resolve()));
    },
  };
  return suite;
}
