import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, selfSignedCertificate, tempDir } from '../support/local-servers.js';
import { startHealthServer, type HealthServer } from '../support/grpc-health-server.js';
import { expectTimeoutTearsDown, probeCheck, runCheck, startSilentListener, type SilentListener } from '../support/probe-runs.js';

const grpcCheck = (target: string, config: Record<string, unknown> = {}, timeoutMs = 5000) =>
  ({ name: 'orders', type: 'grpc', target, config, thresholds: { timeoutMs } }) as const;

describe('grpc probe against a grpc-js server serving the standard health service', () => {
  let plain: HealthServer;
  let secure: HealthServer;
  beforeAll(async () => {
    plain = await startHealthServer();
    plain.statuses.set('orders.v1.Orders', 'SERVING');
    plain.statuses.set('billing.v1.Billing', 'NOT_SERVING');
    const { cert, key } = selfSignedCertificate(tempDir('svc-grpc-tls-'));
    secure = await startHealthServer({ key: readFileSync(key), cert: readFileSync(cert) });
  });
  afterAll(async () => {
    await plain?.close();
    await secure?.close();
  });

  it('is up when the server or the service is SERVING, and sends the metadata', async () => {
    expect(await runCheck(probeCheck(grpcCheck(`127.0.0.1:${plain.port}`)))).toMatchObject({ status: 'up', message: 'the server is SERVING' });
    const service = await runCheck(
      probeCheck(grpcCheck(`localhost:${plain.port}`, { service: 'orders.v1.Orders', metadata: { 'x-tenant': 'shop' }, keyword: { value: 'SERVING' } })),
    );
    expect(service).toMatchObject({ status: 'up', message: 'service orders.v1.Orders is SERVING' });
    expect(plain.lastMetadata?.get('x-tenant')).toEqual(['shop']);
  });

  it('is down when the service is not serving or unknown', async () => {
    expect(await runCheck(probeCheck(grpcCheck(`127.0.0.1:${plain.port}`, { service: 'billing.v1.Billing' })))).toMatchObject({
      status: 'down',
      message: 'service billing.v1.Billing is NOT_SERVING',
    });
    expect(await runCheck(probeCheck(grpcCheck(`127.0.0.1:${plain.port}`, { service: 'nope.v1.Nope' })))).toMatchObject({
      status: 'down',
      message: 'the server does not know service "nope.v1.Nope"',
    });
  });

  it('speaks TLS: up when invalid certificates are accepted, down when the certificate is checked', async () => {
    const target = `localhost:${secure.port}`;
    expect(await runCheck(probeCheck(grpcCheck(target, { useTls: true, ignoreTlsErrors: true })))).toMatchObject({
      status: 'up',
      message: 'the server is SERVING',
    });
    expect(await runCheck(probeCheck(grpcCheck(target, { useTls: true })))).toMatchObject({
      status: 'down',
      message: `TLS handshake with ${target} failed: DEPTH_ZERO_SELF_SIGNED_CERT`,
    });
  });
});

describe('grpc probe, refused and timeout', () => {
  let listener: SilentListener;
  beforeAll(async () => {
    listener = await startSilentListener();
  });
  afterAll(() => listener.close());

  it('is down when nothing listens', async () => {
    const port = await freePort();
    expect(await runCheck(probeCheck(grpcCheck(`127.0.0.1:${port}`)))).toMatchObject({
      status: 'down',
      message: `connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });

  it('ends at thresholds.timeoutMs against a server that never answers, and closes its socket', async () => {
    await expectTimeoutTearsDown(probeCheck(grpcCheck(`127.0.0.1:${listener.port}`, {}, 500)), listener);
  });
});
