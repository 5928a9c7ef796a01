import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVC_BIN } from '../../support/cli.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../../support/databases.js';
import { ADMIN_PASSWORD, FAST_HASHING, startTestDaemon, TEST_SECRET_KEY } from '../../support/daemon.js';

/** A webhook receiver that answers the first `answerFirst` requests and holds every later one open until `release()`. */
async function startHoldingReceiver(answerFirst: number) {
  const arrivals: string[] = [];
  /** The incident title of each arrival, in order. */
  const titles: string[] = [];
  const held: ServerResponse[] = [];
  let holding = true;
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      arrivals.push(message.id);
      titles.push(message.incident?.title ?? '');
      if (holding && arrivals.length > answerFirst) held.push(res);
      else res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    titles,
    release() {
      holding = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function until(what: string, probe: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `svc daemon` as a child process on `dbUrl`; resolves with its API URL once it listens. */
function spawnDaemon(dbUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [SVC_BIN, 'daemon'], {
    env: {
      PATH: process.env.PATH,
      SVC_DB_URL: dbUrl,
      SVC_LISTEN: '127.0.0.1:0',
      SVC_LOG_LEVEL: 'info',
      SVC_LOG_FORMAT: 'json',
      SVC_AUTH_JWT_SECRET: 'test-secret-test-secret-test-secret!',
      SVC_NOTIFY_LEASE: '2s',
      // Both daemons must read the channel settings the first one encrypted.
      SVC_SECRET_KEY: TEST_SECRET_KEY,
      ...FAST_HASHING,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`daemon did not start: ${output}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /"url":"(http:[^"]+)"/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', () => reject(new Error(`daemon exited: ${output}`)));
  });
}

async function api(base: string, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe.each(DATABASE_KINDS)('the outbox survives kill -9 [%s]', (kind) => {
  let database: TestDatabase;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await database.drop();
  });

  it('a daemon killed during delivery loses nothing, and what it had sent is not sent again', async () => {
    const receiver = await startHoldingReceiver(10);
    try {
      const first = await spawnDaemon(database.url);
      children.push(first.child);
      const login = await api(first.url, 'POST', '/auth/login', undefined, { email: 'admin@svc.local', password: 'svc-admin' });
      const token = login.body.accessToken as string;
      expect((await api(first.url, 'POST', '/auth/password', token, { currentPassword: 'svc-admin', newPassword: ADMIN_PASSWORD })).status).toBe(204);
      const channel = await api(first.url, 'POST', '/orgs/default/notification-channels', token, {
        name: 'hook',
        type: 'webhook',
        config: { url: receiver.url },
        default: true,
      });
      expect(channel.status).toBe(201);
      for (let i = 0; i < 20; i++) expect((await api(first.url, 'POST', '/orgs/default/incidents', token, { title: `Incident ${i}` })).status).toBe(201);

      // Ten were answered and recorded as sent; the other ten are held at the receiver, mid-delivery.
      const deliveries = () => api(first.url, 'GET', `/orgs/default/notification-channels/${channel.body.uid}/deliveries?limit=50`, token);
      await until(
        'ten sent and ten in flight',
        async () => (await deliveries()).body.items.filter((d: { status: string }) => d.status === 'sent').length === 10 && receiver.arrivals.length === 20,
      );
      first.child.kill('SIGKILL');
      await new Promise((resolve) => first.child.once('exit', resolve));
      const sentBefore = new Set(receiver.arrivals.slice(0, 10));
      receiver.release();

      const second = await spawnDaemon(database.url);
      children.push(second.child);
      const token2 = (await api(second.url, 'POST', '/auth/login', undefined, { email: 'admin@svc.local', password: ADMIN_PASSWORD })).body
        .accessToken as string;
      await until('all twenty sent', async () => {
        const items = (await api(second.url, 'GET', `/orgs/default/notification-channels/${channel.body.uid}/deliveries?limit=50`, token2)).body.items;
        return items.length === 20 && items.every((d: { status: string }) => d.status === 'sent');
      });
      const counts = new Map<string, number>();
      for (const id of receiver.arrivals) counts.set(id, (counts.get(id) ?? 0) + 1);
      expect(counts.size).toBe(20);
      for (const id of sentBefore) expect(counts.get(id), 'a message recorded as sent went out again').toBe(1);
      // The ten in flight when the daemon died went out again: at least once, never more than twice.
      expect([...counts.values()].filter((n) => n === 2)).toHaveLength(10);
      second.child.kill('SIGTERM');
    } finally {
      await receiver.close();
    }
  }, 90_000);
});

describe.each(DATABASE_KINDS.filter((k) => k === 'postgres'))('two daemons on one database [%s]', (kind) => {
  it('send each message once', async () => {
    const receiver = await startHoldingReceiver(Number.POSITIVE_INFINITY);
    const one = await startTestDaemon(kind);
    const two = await startTestDaemon(kind, { database: one.database });
    try {
      const token = await one.adminToken();
      const channel = await one.request('POST', '/orgs/default/notification-channels', {
        token,
        body: { name: 'hook', type: 'webhook', config: { url: receiver.url }, default: true },
      });
      expect(channel.status).toBe(201);
      await Promise.all(Array.from({ length: 150 }, (_, i) => one.request('POST', '/orgs/default/incidents', { token, body: { title: `Incident ${i}` } })));
      await until('150 arrivals', () => receiver.arrivals.length >= 150);
      // A sentinel enqueued after the 150: once it arrived, a second sending of any of them would have too.
      await one.request('POST', '/orgs/default/incidents', { token, body: { title: 'Sentinel' } });
      await until('the sentinel', () => receiver.titles.includes('Sentinel'));
      expect(receiver.arrivals).toHaveLength(151);
      expect(new Set(receiver.arrivals).size).toBe(151);
      // Each daemon counts what it sent: together exactly the 150.
      const sent = async (daemon: typeof one) =>
        (await daemon.deps.metrics.notificationDeliveries.get()).values.find((v) => v.labels.result === 'sent')?.value ?? 0;
      const [byOne, byTwo] = [await sent(one), await sent(two as typeof one)];
      expect(byOne + byTwo).toBe(151);
    } finally {
      await two.close();
      await one.stop();
      await receiver.close();
    }
  }, 90_000);
});
