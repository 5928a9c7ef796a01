import { createServer, type AddressInfo, type Server } from 'node:net';
import { readFileSync } from 'node:fs';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, requireProgram, selfSignedCertificate, tempDir } from '../support/local-servers.js';
import { startPrivateDovecot, type PrivateDovecot } from '../support/private-dovecot.js';
import { expectTimeoutTearsDown, probeCheck, runCheck, startSilentListener, type SilentListener } from '../support/probe-runs.js';

const mail = (type: 'smtp' | 'imap' | 'pop3', target: string, config: Record<string, unknown> = {}, timeoutMs = 5000) =>
  ({ name: `${type} server`, type, target, config, thresholds: { timeoutMs } }) as const;

async function listen(server: SMTPServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.server.address() as AddressInfo).port;
}

describe('smtp probe against smtp-server (a real SMTP server implementation)', () => {
  const dir = tempDir('svc-smtp-');
  const { cert, key } = selfSignedCertificate(dir);
  const tlsFiles = { key: readFileSync(key), cert: readFileSync(cert) };
  const servers: SMTPServer[] = [];
  let plainPort: number;
  let tlsPort: number;
  let refusingPort: number;
  beforeAll(async () => {
    const plain = new SMTPServer({ ...tlsFiles, name: 'mx.test', logger: false, authOptional: true });
    const secure = new SMTPServer({ ...tlsFiles, secure: true, name: 'mx.test', logger: false, authOptional: true });
    const refusing = new SMTPServer({
      name: 'mx.test',
      logger: false,
      onConnect: (_session, callback) => callback(Object.assign(new Error('no service for you'), { responseCode: 554 })),
    });
    servers.push(plain, secure, refusing);
    // A refused certificate ends the handshake from our side: the server reports it, nothing more.
    for (const server of servers) server.on('error', () => {});
    [plainPort, tlsPort, refusingPort] = [await listen(plain), await listen(secure), await listen(refusing)];
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(() => resolve(undefined)))));
  });

  it('is up with the greeting, plain, after STARTTLS and over TLS (self-signed accepted)', async () => {
    const plain = await runCheck(probeCheck(mail('smtp', `127.0.0.1:${plainPort}`)));
    expect(plain).toMatchObject({ status: 'up' });
    expect(plain.message).toMatch(/^220 mx\.test ESMTP/);
    const upgraded = await runCheck(probeCheck(mail('smtp', `127.0.0.1:${plainPort}`, { security: 'starttls', ignoreTlsErrors: true })));
    expect(upgraded).toMatchObject({ status: 'up', message: 'STARTTLS accepted (STARTTLS)' });
    const secure = await runCheck(probeCheck(mail('smtp', `127.0.0.1:${tlsPort}`, { security: 'tls', ignoreTlsErrors: true })));
    expect(secure.status).toBe('up');
    expect(secure.message).toMatch(/^220 mx\.test ESMTP.* \(TLS\)$/);
  });

  it('is down when the certificate is not trusted, or the server turns the session away', async () => {
    const untrusted = await runCheck(probeCheck(mail('smtp', `127.0.0.1:${tlsPort}`, { security: 'tls' })));
    expect(untrusted).toMatchObject({ status: 'down', message: `TLS handshake with 127.0.0.1:${tlsPort} failed: DEPTH_ZERO_SELF_SIGNED_CERT` });
    const refused = await runCheck(probeCheck(mail('smtp', `127.0.0.1:${refusingPort}`)));
    expect(refused).toMatchObject({ status: 'down', message: 'the SMTP server refused the session: 554 no service for you' });
  });
});

const dovecot = requireProgram('/usr/sbin/dovecot');

describe.skipIf(!dovecot.ok)('imap and pop3 probes against a private Dovecot', () => {
  let server: PrivateDovecot;
  beforeAll(async () => {
    server = await startPrivateDovecot();
  });
  afterAll(() => server?.stop());

  it('is up on IMAP plain, STARTTLS and TLS', async () => {
    for (const [port, security, suffix] of [
      [server.imapPort, 'none', ''],
      [server.imapPort, 'starttls', ' (STARTTLS)'],
      [server.imapsPort, 'tls', ' (TLS)'],
    ] as const) {
      const result = await runCheck(probeCheck(mail('imap', `127.0.0.1:${port}`, { security, ignoreTlsErrors: true })));
      expect(result.status, result.message).toBe('up');
      expect(result.message).toMatch(/^\* OK .*Dovecot/);
      expect(result.message.endsWith(`ready.${suffix}`)).toBe(true);
    }
  });

  it('is up on POP3 plain, STLS and TLS', async () => {
    for (const [port, security] of [
      [server.pop3Port, 'none'],
      [server.pop3Port, 'starttls'],
      [server.pop3sPort, 'tls'],
    ] as const) {
      const result = await runCheck(probeCheck(mail('pop3', `127.0.0.1:${port}`, { security, ignoreTlsErrors: true })));
      expect(result.status, result.message).toBe('up');
      expect(result.message).toMatch(/^\+OK Dovecot/);
    }
  });

  it('is down when the certificate is not trusted, and when the port speaks another protocol', async () => {
    const untrusted = await runCheck(probeCheck(mail('imap', `127.0.0.1:${server.imapsPort}`, { security: 'tls' })));
    expect(untrusted).toMatchObject({ status: 'down', message: `TLS handshake with 127.0.0.1:${server.imapsPort} failed: DEPTH_ZERO_SELF_SIGNED_CERT` });
    const wrongProtocol = await runCheck(probeCheck(mail('pop3', `127.0.0.1:${server.imapPort}`)));
    expect(wrongProtocol.status).toBe('down');
    expect(wrongProtocol.message).toMatch(/^the POP3 server refused the session: \* OK/);
  });
});

describe('mail probes, refused and timeout', () => {
  let listener: SilentListener;
  let closing: Server;
  beforeAll(async () => {
    listener = await startSilentListener();
  });
  afterAll(async () => {
    await listener.close();
    closing?.close();
  });

  it('is down when nothing listens', async () => {
    const port = await freePort();
    for (const type of ['smtp', 'imap', 'pop3'] as const) {
      expect(await runCheck(probeCheck(mail(type, `127.0.0.1:${port}`)))).toMatchObject({
        status: 'down',
        message: `connect ECONNREFUSED 127.0.0.1:${port}`,
      });
    }
  });

  it('is down when the server closes without a greeting', async () => {
    closing = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    const { port } = closing.address() as AddressInfo;
    expect(await runCheck(probeCheck(mail('imap', `127.0.0.1:${port}`)))).toMatchObject({
      status: 'down',
      message: 'the connection closed without a reply',
    });
  });

  it('ends at thresholds.timeoutMs against a server that never greets, and closes its socket', async () => {
    for (const type of ['smtp', 'imap', 'pop3'] as const) {
      await expectTimeoutTearsDown(probeCheck(mail(type, `127.0.0.1:${listener.port}`, { security: 'starttls' }, 400)), listener);
    }
  });
});
