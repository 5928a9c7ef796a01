import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

/**
 * A TCP listener on 127.0.0.1 that records every connection's client port. `onlySentinel()`
 * connects once more itself and resolves with the connections seen before that one arrived:
 * what the daemon opened, with no waiting on a clock.
 */
async function startWitness() {
  const seen: number[] = [];
  const sockets = new Set<Socket>();
  const arrivals: Array<() => void> = [];
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    seen.push(socket.remotePort ?? 0);
    arrivals.splice(0).forEach((arrived) => arrived());
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    /** The client ports of the connections that came before the sentinel's. */
    async beforeSentinel(): Promise<number[]> {
      const sentinel = connect(port, '127.0.0.1');
      sentinel.on('error', () => {});
      await new Promise<void>((resolve) => sentinel.once('connect', () => resolve()));
      const own = sentinel.localPort!;
      while (!seen.includes(own)) await new Promise<void>((resolve) => arrivals.push(resolve));
      sentinel.destroy();
      const others = seen.filter((clientPort) => clientPort !== own);
      seen.length = 0;
      return others;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe.each(DATABASE_KINDS)('outbound requests for members go through the egress policy [%s]', (kind) => {
  let daemon: TestDaemon;
  let witness: Awaited<ReturnType<typeof startWitness>>;
  let admin: string;

  // 0.0.0.0 reaches the loopback listener when connected to, and every policy refuses it.
  beforeAll(async () => {
    witness = await startWitness();
    daemon = await startTestDaemon(kind, {
      env: {
        // Checks may reach 127.0.0.2 only; the witness listens on 127.0.0.1.
        SVC_RUNNER_ALLOW: '127.0.0.2/32',
        SVC_OIDC_ISSUER: `http://0.0.0.0:${witness.port}`,
        SVC_OIDC_CLIENT_ID: 'svc',
        SVC_OIDC_CLIENT_SECRET: 'oidc-client-secret',
      },
    });
    admin = await daemon.adminToken();
  });
  afterAll(async () => {
    await daemon?.stop();
    await witness?.close();
  });

  it('refuses a SAML metadata address the policy forbids with 400 naming the refusal, and connects nowhere', async () => {
    const refused = await daemon.request('PUT', '/orgs/default/saml', { token: admin, body: { metadataUrl: `https://0.0.0.0:${witness.port}/metadata` } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('refused by the egress policy') });
    expect(refused.body.error.details.issues).toEqual([
      { path: 'metadataUrl', message: 'not fetched: egress policy refuses 0.0.0.0 (link-local, metadata or unspecified address)' },
    ]);
    expect(await witness.beforeSentinel()).toEqual([]);
    expect((await daemon.request('GET', '/orgs/default/saml', { token: admin })).status).toBe(404);
  });

  it('refuses a webhook channel test to an address the policy forbids, and connects nowhere', async () => {
    const created = await daemon.request('POST', '/orgs/default/notification-channels', {
      token: admin,
      body: { name: 'Hook', type: 'webhook', config: { url: `http://0.0.0.0:${witness.port}/hook` } },
    });
    expect(created.status).toBe(201);
    const test = await daemon.request('POST', `/orgs/default/notification-channels/${created.body.uid}/test`, { token: admin });
    expect(test.body).toMatchObject({
      ok: false,
      responseCode: null,
      error: expect.stringContaining('egress policy refuses 0.0.0.0 (link-local, metadata or unspecified address)'),
    });
    expect(await witness.beforeSentinel()).toEqual([]);
  });

  it('runs a test check only inside SVC_RUNNER_ALLOW: outside it, down saying so, and nothing connects', async () => {
    const run = await daemon.request('POST', '/orgs/default/checks/test', {
      token: admin,
      body: { name: 'Outside', type: 'tcp', target: `127.0.0.1:${witness.port}` },
    });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ status: 'down', message: 'egress policy refuses 127.0.0.1 (outside the allowed networks)' });
    expect(await witness.beforeSentinel()).toEqual([]);
  });

  it('refuses OpenID Connect discovery at a refused address: the sign-in fails as provider_error, the log says why, nothing connects', async () => {
    const start = await fetch(`${daemon.url}/api/v1/auth/oidc/login`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    expect(new URL(start.headers.get('location')!).searchParams.get('error')).toBe('provider_error');
    expect(
      daemon.logs.some((line) =>
        line.includes(`discovery document at http://0.0.0.0:${witness.port}/.well-known/openid-configuration not read: egress policy refuses 0.0.0.0`),
      ),
    ).toBe(true);
    expect(await witness.beforeSentinel()).toEqual([]);
  });
});
