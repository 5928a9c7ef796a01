import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon } from '../../support/daemon.js';

// The notification dispatcher (daemon/notify/dispatcher.ts, polling-loop.ts) delivers 50 messages
// at once and at most 25 to one channel, and deliveries that end make room without waiting for the
// slowest: a receiver that holds every request open until the delivery's timeout holds up its own
// messages only.

/** A webhook receiver that answers at once, or (`hangs`) holds every request open until closed. */
async function startReceiver(hangs: boolean) {
  const arrivals: string[] = [];
  const held: ServerResponse[] = [];
  let mostHeld = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      arrivals.push(JSON.parse(Buffer.concat(chunks).toString('utf8')).id);
      if (!hangs) return void res.end('ok');
      held.push(res);
      mostHeld = Math.max(mostHeld, held.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    mostHeld: () => mostHeld,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function until(what: string, probe: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const INCIDENTS = 40;

describe.each(DATABASE_KINDS)('a receiver that hangs [%s]', (kind) => {
  it("holds up its own channel's messages, not another channel's", async () => {
    const hanging = await startReceiver(true);
    const quick = await startReceiver(false);
    // Deliveries time out long after the test is over: the hanging ones stay under way throughout.
    const daemon = await startTestDaemon(kind, { env: { SVC_NOTIFY_TIMEOUT: '120s', SVC_NOTIFY_LEASE: '180s' } });
    try {
      const token = await daemon.adminToken();
      for (const [name, receiver] of [
        ['hanging', hanging],
        ['quick', quick],
      ] as const) {
        const channel = await daemon.request('POST', '/orgs/default/notification-channels', {
          token,
          body: { name, type: 'webhook', config: { url: receiver.url }, default: true },
        });
        expect(channel.status).toBe(201);
      }
      for (let i = 0; i < INCIDENTS; i++) {
        expect((await daemon.request('POST', '/orgs/default/incidents', { token, body: { title: `Incident ${i}` } })).status).toBe(201);
      }
      // Every message to the quick channel arrives while the hanging one holds its share open, and no more.
      await until(`${INCIDENTS} messages at the quick receiver`, () => quick.arrivals.length >= INCIDENTS, 20_000);
      expect(new Set(quick.arrivals).size).toBe(INCIDENTS);
      // Its share is 25: the lane is left out once too near it for another lease of 5.
      expect(hanging.mostHeld()).toBeGreaterThan(20);
      expect(hanging.mostHeld()).toBeLessThanOrEqual(25);
      expect(hanging.arrivals.length).toBe(hanging.mostHeld());
    } finally {
      await hanging.close();
      await quick.close();
      await daemon.stop();
    }
  }, 60_000);
});
