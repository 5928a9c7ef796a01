import { connect, createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgressPolicy } from '../../probes/egress.js';
import { startEgressSocksProxy } from '../../probes/egress-socks-proxy.js';
import { egressMongoClient } from '../../probes/types/mongodb.js';
import { startMongoFake, type MongoFake } from '../support/fakes/mongodb-fake.js';
import { freePort } from '../support/local-servers.js';
import { makeCertificates } from './support/certificates.js';
import { expectTimeoutTearsDown, probeCheck, runCheck, startSilentListener, type SilentListener } from '../support/probe-runs.js';

const USER = 'monitor';
const PASSWORD = 'mongo-probe-secret-4711';

const mongo = (target: string, config: Record<string, unknown> = {}, timeoutMs = 5000) =>
  ({ name: 'mongo', type: 'mongodb', target, config, thresholds: { timeoutMs } }) as const;

describe('mongodb probe against a protocol-level fake (wire protocol, hello, SCRAM-SHA-256, commands)', () => {
  let fake: MongoFake;
  beforeAll(async () => {
    fake = await startMongoFake({ username: USER, password: PASSWORD });
  });
  afterAll(() => fake.close());

  it('is up when ping answers ok, with and without signing in', async () => {
    const target = `127.0.0.1:${fake.port}`;
    expect(await runCheck(probeCheck(mongo(target)))).toMatchObject({ status: 'up', message: 'ping ok' });
    const signedIn = await runCheck(probeCheck(mongo(target, { username: USER, database: 'catalogue', command: { serverStatus: 1 } }), { password: PASSWORD }));
    expect(signedIn).toMatchObject({ status: 'up', message: 'serverStatus ok' });
    expect(fake.commands).toContain('saslContinue');
  });

  it("is down with a wrong password, and with the server's words for an unknown command", async () => {
    const target = `127.0.0.1:${fake.port}`;
    const wrong = await runCheck(probeCheck(mongo(target, { username: USER }), { password: `${PASSWORD}-wrong` }));
    expect(wrong).toMatchObject({ status: 'down', message: `authentication failed for user "${USER}"` });
    const unknown = await runCheck(probeCheck(mongo(target, { command: { noSuchThing: 1 } })));
    expect(unknown).toMatchObject({ status: 'down', message: "noSuchThing failed: no such command: 'noSuchThing'" });
  });
});

describe('mongodb probe against the fake requiring TLS (tls=true)', () => {
  let fake: MongoFake;
  beforeAll(async () => {
    fake = await startMongoFake({ username: USER, password: PASSWORD }, { tls: makeCertificates().selfSigned });
  });
  afterAll(() => fake.close());

  it('is up when the certificate is accepted, and down with the reason when it is not trusted', async () => {
    const target = `127.0.0.1:${fake.port}`;
    const accepted = await runCheck(probeCheck(mongo(target, { username: USER, useTls: true, ignoreTlsErrors: true }), { password: PASSWORD }));
    expect(accepted).toMatchObject({ status: 'up', message: 'ping ok' });
    expect(fake.commands).toContain('saslContinue');
    const untrusted = await runCheck(probeCheck(mongo(target, { useTls: true })));
    expect(untrusted).toMatchObject({ status: 'down', message: `TLS handshake with ${target} failed: DEPTH_ZERO_SELF_SIGNED_CERT` });
    const plaintext = await runCheck(probeCheck(mongo(target)));
    expect(plaintext.status).toBe('down');
  });
});

describe('mongodb probe, refused and timeout', () => {
  let listener: SilentListener;
  beforeAll(async () => {
    listener = await startSilentListener();
  });
  afterAll(() => listener.close());

  it('is down when nothing listens', async () => {
    const port = await freePort();
    expect(await runCheck(probeCheck(mongo(`127.0.0.1:${port}`)))).toMatchObject({
      status: 'down',
      message: `connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });

  it('ends at thresholds.timeoutMs against a server that never answers, and closes its sockets', async () => {
    await expectTimeoutTearsDown(probeCheck(mongo(`127.0.0.1:${listener.port}`, {}, 500)), listener);
  });
});

describe('mongodb: servers the driver discovers go through the egress policy (fake announcing a member)', () => {
  it('opens no connection to a member announced in hello at an address the policy refuses', async () => {
    // The refused member: a listener on 127.0.0.2 that records every connection.
    const seen: number[] = [];
    const arrivals: Array<() => void> = [];
    const witness = createServer((socket) => {
      seen.push(socket.remotePort ?? 0);
      arrivals.splice(0).forEach((arrived) => arrived());
      socket.destroy();
    });
    await new Promise<void>((resolve) => witness.listen(0, '127.0.0.2', resolve));
    const witnessPort = (witness.address() as AddressInfo).port;
    const member = `127.0.0.2:${witnessPort}`;
    const fake = await startMongoFake(
      { username: USER, password: PASSWORD },
      {
        helloExtras: (port) => ({
          setName: 'rs0',
          hosts: [`127.0.0.1:${port}`, member],
          me: `127.0.0.1:${port}`,
          primary: `127.0.0.1:${port}`,
        }),
      },
    );
    const egress = createEgressPolicy({ denyPrivate: false, allow: ['127.0.0.1/32'] });
    const proxy = await startEgressSocksProxy(egress);
    // Replica set discovery, as a mongodb+srv target gets: the driver learns the member from hello.
    const client = egressMongoClient(`mongodb://127.0.0.1:${fake.port}/?replicaSet=rs0`, proxy, { serverSelectionTimeoutMS: 5000, heartbeatFrequencyMS: 500 });
    const memberTried = new Promise<void>((resolve) => client.on('serverHeartbeatFailed', (event) => event.connectionId === member && resolve()));
    try {
      await client.connect();
      expect((await client.db('admin').command({ ping: 1 })).ok).toBe(1);
      await memberTried;
      expect(proxy.refusals).toContain('egress policy refuses 127.0.0.2 (outside the allowed networks)');
      // Sentinel: our own connection arrives; none of the driver's came before it.
      const sentinel = connect(witnessPort, '127.0.0.2');
      sentinel.on('error', () => {});
      await new Promise<void>((resolve) => sentinel.once('connect', () => resolve()));
      const own = sentinel.localPort!;
      while (!seen.includes(own)) await new Promise<void>((resolve) => arrivals.push(resolve));
      sentinel.destroy();
      expect(seen.filter((clientPort) => clientPort !== own)).toEqual([]);
    } finally {
      await client.close().catch(() => {});
      await proxy.close();
      await fake.close();
      await new Promise((resolve) => witness.close(resolve));
    }
  });
});
