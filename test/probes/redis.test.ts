import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureService, freePort, requireProgram, startPrivateRedis, type PrivateRedis } from '../support/local-servers.js';
import { expectTimeoutTearsDown, probeCheck, runCheck, startSilentListener, type SilentListener } from '../support/probe-runs.js';

const PASSWORD = 'redis-probe-secret-4711';
const shared = await ensureService('redis-server', 6379);
const binary = requireProgram('redis-server');

const redis = (target: string, config: Record<string, unknown> = {}, timeoutMs = 5000) =>
  ({ name: 'cache', type: 'redis', target, config, thresholds: { timeoutMs } }) as const;

describe.skipIf(!shared.ok)('redis probe against the local Redis', () => {
  it('is up when PING answers PONG, on the selected database', async () => {
    expect(await runCheck(probeCheck(redis('127.0.0.1')))).toMatchObject({ status: 'up', message: 'PONG' });
    expect(await runCheck(probeCheck(redis('127.0.0.1:6379', { database: 3 })))).toMatchObject({
      status: 'up',
      message: 'PONG from database 3',
    });
  });

  it('is down when the database number does not exist', async () => {
    const result = await runCheck(probeCheck(redis('127.0.0.1:6379', { database: 200 })));
    expect(result).toMatchObject({ status: 'down', message: 'ERR DB index is out of range' });
  });
});

describe.skipIf(!binary.ok)('redis probe against a private redis-server with requirepass', () => {
  let server: PrivateRedis;
  beforeAll(async () => {
    server = await startPrivateRedis(PASSWORD);
  });
  afterAll(() => server?.stop());

  it('is up with the password, down with a wrong one or none', async () => {
    const target = `127.0.0.1:${server.port}`;
    expect(await runCheck(probeCheck(redis(target), { password: PASSWORD }))).toMatchObject({ status: 'up', message: 'PONG' });
    const wrong = await runCheck(probeCheck(redis(target), { password: `${PASSWORD}-wrong` }));
    expect(wrong).toMatchObject({ status: 'down', message: 'authentication failed' });
    const acl = await runCheck(probeCheck(redis(target, { username: 'monitor' }), { password: PASSWORD }));
    expect(acl).toMatchObject({ status: 'down', message: 'authentication failed for user "monitor"' });
    const none = await runCheck(probeCheck(redis(target)));
    expect(none).toMatchObject({ status: 'down', message: 'the server requires a password, and the check has none' });
  });

  it('connects over TLS: up when invalid certificates are accepted, down naming the certificate problem otherwise', async () => {
    const target = `127.0.0.1:${server.tlsPort}`;
    const accepted = await runCheck(probeCheck(redis(target, { useTls: true, ignoreTlsErrors: true }), { password: PASSWORD }));
    expect(accepted).toMatchObject({ status: 'up', message: 'PONG' });
    const checked = await runCheck(probeCheck(redis(target, { useTls: true }), { password: PASSWORD }));
    expect(checked).toMatchObject({ status: 'down', message: `TLS handshake with ${target} failed: DEPTH_ZERO_SELF_SIGNED_CERT` });
  });
});

describe('redis probe, refused and timeout', () => {
  let listener: SilentListener;
  beforeAll(async () => {
    listener = await startSilentListener();
  });
  afterAll(() => listener.close());

  it('is down when nothing listens', async () => {
    const port = await freePort();
    expect(await runCheck(probeCheck(redis(`127.0.0.1:${port}`)))).toMatchObject({
      status: 'down',
      message: `connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });

  it('ends at thresholds.timeoutMs against a server that never answers, and closes its socket', async () => {
    await expectTimeoutTearsDown(probeCheck(redis(`127.0.0.1:${listener.port}`, {}, 500)), listener);
  });
});
