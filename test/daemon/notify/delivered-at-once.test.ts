import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import type { Runner } from '../../../daemon/runner/runner.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { startFakeReceivers, type FakeReceivers } from '../../support/fakes/notify-receivers.js';
import { testRunner } from '../../support/runner.js';

// A daemon's dispatcher looks for due messages every SVC_NOTIFY_POLL_INTERVAL; the messages the
// daemon queues itself ring its bell when they commit (daemon/notify/outbox-bell.ts) and go out at
// once. With a poll of ten minutes, only the bell brings them within seconds.
const WITHIN_MS = 5_000;

describe.each(DATABASE_KINDS)('messages a daemon queues go out as they commit, not at its next poll [%s]', (kind) => {
  const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
  let daemon: TestDaemon;
  let admin: string;
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
    daemon = await startTestDaemon(kind, { clock, env: { SVC_NOTIFY_POLL_INTERVAL: '10m' } });
    admin = await daemon.adminToken();
    runner = testRunner(daemon, clock);
    const channel = await daemon.request('POST', '/orgs/default/notification-channels', {
      token: admin,
      body: { name: 'hook', type: 'webhook', config: { url: `${receiver.url}/hook` }, default: true },
    });
    expect(channel.status).toBe(201);
    const check = await daemon.request('POST', '/orgs/default/checks', {
      token: admin,
      body: {
        name: 'Shop',
        type: 'http',
        intervalSeconds: 30,
        target: `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`,
        thresholds: { failuresBeforeDown: 1, successesBeforeUp: 1, timeoutMs: 2000 },
      },
    });
    expect(check.status).toBe(201);
    // The dispatcher's first look, at its start, found nothing: it now sleeps ten minutes.
  });
  afterAll(async () => {
    await daemon.stop();
    await receiver.close();
    await new Promise<void>((resolve) => target.close(() => resolve()));
  });

  it('delivers an incident a member opens, and its acknowledgement, within seconds', async () => {
    const opened = await daemon.request('POST', '/orgs/default/incidents', { token: admin, body: { title: 'Mail is slow' } });
    expect(opened.status).toBe(201);
    const [message] = await receiver.waitFor('/hook', 1, WITHIN_MS);
    expect(message.json).toMatchObject({ event: 'incident.opened', incident: { uid: opened.body.uid, title: 'Mail is slow' } });
    const acknowledged = await daemon.request('POST', `/orgs/default/incidents/${opened.body.uid}/acknowledge`, { token: admin });
    expect(acknowledged.status).toBe(200);
    const [, second] = await receiver.waitFor('/hook', 2, WITHIN_MS);
    expect(second.json).toMatchObject({ event: 'incident.acknowledged', incident: { uid: opened.body.uid } });
  });

  it('delivers the incident the engine opens when a check goes down, and its resolution, within seconds', async () => {
    await nextRun();
    status = 503;
    await nextRun();
    const down = await receiver.waitFor('/hook', 3, WITHIN_MS);
    expect(down[2].json).toMatchObject({ event: 'incident.opened', check: { slug: 'shop' }, incident: { title: 'Shop is down' } });
    status = 200;
    await nextRun();
    const up = await receiver.waitFor('/hook', 4, WITHIN_MS);
    expect(up[3].json).toMatchObject({ event: 'incident.resolved', incident: { uid: down[2].json.incident.uid } });
  });
});
