import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { until } from '../../support/runner.js';

// A message's lease (SVC_NOTIFY_LEASE) outlasts its delivery's timeout, so another lease finds it
// only once its daemon is gone. When the clock jumps forward past the lease while the message is
// still being delivered, this daemon's next lease takes it again: it must not send it twice.

describe.each(DATABASE_KINDS)('a message leased again while its daemon still delivers it [%s]', (kind) => {
  const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
  let daemon: TestDaemon;
  let admin: string;
  let receiver: Server;
  const held: ServerResponse[] = [];
  /** The incident title of each request received, in order. */
  const received: string[] = [];

  beforeAll(async () => {
    // Holds every request until the test answers it.
    receiver = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')).incident.title);
        held.push(res);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    daemon = await startTestDaemon(kind, { clock, env: { SVC_NOTIFY_POLL_INTERVAL: '1s', SVC_NOTIFY_TIMEOUT: '30s' } });
    admin = await daemon.adminToken();
    const channel = await daemon.request('POST', '/orgs/default/notification-channels', {
      token: admin,
      body: { name: 'hook', type: 'webhook', config: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` }, default: true },
    });
    expect(channel.status).toBe(201);
  });
  afterAll(async () => {
    for (const res of held) res.end();
    await daemon.stop();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('is sent once, and recorded as sent', async () => {
    const opened = await daemon.request('POST', '/orgs/default/incidents', { token: admin, body: { title: 'Clock jump' } });
    expect(opened.status).toBe(201);
    await until(() => received.length === 1);
    expect(received).toHaveLength(1);
    // Past the message's lease (60 s) while its delivery waits on the receiver: the next polls lease it again.
    clock.advance(120_000);
    const webhookMessage = () =>
      daemon.deps.db.kysely
        .selectFrom('notification_outbox')
        .select(['attempts', 'status'])
        .where('incident_uid', '=', opened.body.uid)
        .where('channel_type', '=', 'webhook')
        .executeTakeFirstOrThrow();
    await until(async () => (await webhookMessage()).attempts >= 2);
    expect((await webhookMessage()).attempts).toBeGreaterThanOrEqual(2);
    held[0].writeHead(204).end();
    await until(async () => (await webhookMessage()).status === 'sent');
    expect((await webhookMessage()).status).toBe('sent');
    // A message queued after it: once it has arrived, a second send of the first, begun when the
    // message was leased again, would have arrived before it.
    const sentinel = await daemon.request('POST', '/orgs/default/incidents', { token: admin, body: { title: 'Sentinel' } });
    expect(sentinel.status).toBe(201);
    await until(() => received.includes('Sentinel'));
    expect(received).toEqual(['Clock jump', 'Sentinel']);
  });
});
