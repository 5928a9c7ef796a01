import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import type { Runner } from '../../../daemon/runner/runner.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { startFakeReceivers, type FakeReceivers } from '../../support/fakes/notify-receivers.js';
import { testRunner } from '../../support/runner.js';

describe.each(DATABASE_KINDS)('incidents the engine opens and resolves are notified [%s]', (kind) => {
  const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
  let daemon: TestDaemon;
  let runner: Runner;
  let target: Server;
  let receiver: FakeReceivers;
  let status = 200;
  const nextRun = async () => {
    clock.advance(30_000);
    await runner.tick();
  };

  beforeAll(async () => {
    target = createServer((_req, res) => res.writeHead(status).end());
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    receiver = await startFakeReceivers();
    daemon = await startTestDaemon(kind, { clock });
    const admin = await daemon.adminToken();
    runner = testRunner(daemon, clock);
    expect(
      (
        await daemon.request('POST', '/orgs/default/notification-channels', {
          token: admin,
          body: { name: 'hook', type: 'webhook', config: { url: `${receiver.url}/hook` }, default: true },
        })
      ).status,
    ).toBe(201);
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
    const created = await daemon.request('POST', '/orgs/default/checks', {
      token: admin,
      body: { name: 'Shop', type: 'http', intervalSeconds: 30, target: url, thresholds: { failuresBeforeDown: 1, successesBeforeUp: 1, timeoutMs: 2000 } },
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await daemon.stop();
    await receiver.close();
    await new Promise<void>((resolve) => target.close(() => resolve()));
  });

  it('sends opened with the failing result’s message, then resolved', async () => {
    await nextRun();
    status = 503;
    await nextRun();
    const [opened] = await receiver.waitFor('/hook', 1);
    expect(opened.json).toMatchObject({
      event: 'incident.opened',
      check: { slug: 'shop', name: 'Shop' },
      incident: { title: 'Shop is down', status: 'open' },
      lastResultMessage: 'expected status 200-299, got 503',
    });
    expect(opened.json.text).toContain('Last result: expected status 200-299, got 503');
    status = 200;
    await nextRun();
    const [, resolved] = await receiver.waitFor('/hook', 2);
    expect(resolved.json).toMatchObject({ event: 'incident.resolved', incident: { uid: opened.json.incident.uid, status: 'resolved' } });
  });
});
