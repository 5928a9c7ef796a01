import { createServer as createNetServer, type AddressInfo, type Server } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCertificates, type TestCertificates } from './support/certificates.js';
import { checkOf, probe, startSilentServer, testEgress, timedProbe } from './support/probe-run.js';

type Name = 'valid' | 'expiringSoon' | 'expired' | 'selfSigned';

describe('tls probe against real local TLS servers', () => {
  let certificates: TestCertificates;
  const ports = {} as Record<Name | 'slow' | 'smtp', number>;
  const closers: Array<() => void> = [];
  beforeAll(async () => {
    certificates = makeCertificates();
    for (const name of ['valid', 'expiringSoon', 'expired', 'selfSigned'] as const) {
      const server = createTlsServer({ ...certificates[name] }, (socket) => socket.end());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      ports[name] = (server.address() as AddressInfo).port;
      closers.push(() => server.close());
    }
    // A TLS server reached through a listener that holds each connection 150 ms first.
    const tlsBehind = createTlsServer({ ...certificates.valid }, (socket) => socket.end());
    const slow = createNetServer((socket) => setTimeout(() => tlsBehind.emit('connection', socket), 150));
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    ports.slow = (slow.address() as AddressInfo).port;
    closers.push(() => slow.close());
    // A real SMTP server offering STARTTLS with the valid certificate.
    const smtp = new SMTPServer({ ...certificates.valid, authOptional: true, logger: false });
    smtp.on('error', () => {});
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    ports.smtp = ((smtp as unknown as { server: Server }).server.address() as AddressInfo).port;
    closers.push(() => smtp.close());
  });
  afterAll(() => closers.forEach((close) => close()));
  const trusting = () => testEgress({ extraCaCertificates: [certificates.ca] });

  it('is up on a valid, trusted certificate, with its remaining days and issuer', async () => {
    const result = await probe(checkOf('tls', `localhost:${ports.valid}`), trusting());
    expect(result.status).toBe('up');
    expect(result.message).toMatch(/^certificate valid for (89|90) more days \(until \d{4}-\d\d-\d\d\), issued by svc probe test CA$/);
  });

  it('checks the name given in serverName, and the address of an IP target', async () => {
    expect((await probe(checkOf('tls', `127.0.0.1:${ports.valid}`), trusting())).status).toBe('up');
    expect(await probe(checkOf('tls', `127.0.0.1:${ports.valid}`, { serverName: 'other.example' }), trusting())).toMatchObject({
      status: 'down',
      message: 'certificate not trusted: ERR_TLS_CERT_ALTNAME_INVALID',
    });
  });

  it('is down on an expired, soon expiring or untrusted certificate', async () => {
    const expired = await probe(checkOf('tls', `localhost:${ports.expired}`), trusting());
    expect(expired.status).toBe('down');
    expect(expired.message).toMatch(/^certificate expired on \d{4}-\d\d-\d\d$/);
    const soon = await probe(checkOf('tls', `localhost:${ports.expiringSoon}`, { expiryThresholdDays: 14 }), trusting());
    expect(soon.status).toBe('down');
    expect(soon.message).toMatch(/^certificate expires in [45] days \(\d{4}-\d\d-\d\d\), threshold 14 days$/);
    expect((await probe(checkOf('tls', `localhost:${ports.expiringSoon}`, { expiryThresholdDays: 3 }), trusting())).status).toBe('up');
    expect(await probe(checkOf('tls', `localhost:${ports.selfSigned}`), trusting())).toMatchObject({
      status: 'down',
      message: 'certificate not trusted: DEPTH_ZERO_SELF_SIGNED_CERT',
    });
    expect(await probe(checkOf('tls', `localhost:${ports.valid}`))).toMatchObject({
      status: 'down',
      message: 'certificate not trusted: UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
  });

  it('upgrades an SMTP connection with STARTTLS first', async () => {
    const result = await probe(checkOf('tls', `localhost:${ports.smtp}`, { startTls: true }), trusting());
    expect(result).toMatchObject({ status: 'up' });
    const plain = await probe(checkOf('tls', `localhost:${ports.valid}`, { startTls: true }, { timeoutMs: 1_000 }), trusting());
    expect(plain).toMatchObject({ status: 'down', message: 'timeout after 1000 ms' });
  });

  it('is degraded when the handshake completes later than degradedResponseMs', async () => {
    const result = await probe(checkOf('tls', `localhost:${ports.slow}`, {}, { degradedResponseMs: 50 }), trusting());
    expect(result.status).toBe('degraded');
    expect(result.latencyMs).toBeGreaterThanOrEqual(140);
  });

  it('ends a handshake that never comes at timeoutMs and closes the connection', async () => {
    const silent = await startSilentServer();
    try {
      const result = await timedProbe(checkOf('tls', `127.0.0.1:${silent.port}`, {}, { timeoutMs: 300 }));
      expect(result).toMatchObject({ status: 'down', message: 'timeout after 300 ms' });
      expect(result.wallMs).toBeLessThan(1_000);
      await silent.allClosed();
    } finally {
      await silent.close();
    }
  });
});
