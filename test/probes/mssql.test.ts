import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTdsFake, type TdsFake } from '../support/fakes/tds-fake.js';
import { freePort } from '../support/local-servers.js';
import { makeCertificates } from './support/certificates.js';
import { signInWithLoginOnlyEncryption } from './support/tds-login-only-client.js';
import { expectTimeoutTearsDown, probeCheck, runCheck, startSilentListener, type SilentListener } from '../support/probe-runs.js';

const USER = 'monitor';
const PASSWORD = 'mssql-probe-secret-4711';

const mssql = (target: string, config: Record<string, unknown> = {}, timeoutMs = 5000) =>
  ({ name: 'erp', type: 'mssql', target, config, thresholds: { timeoutMs } }) as const;

describe('mssql probe against a protocol-level fake (TDS prelogin, login7, SQL batch)', () => {
  let fake: TdsFake;
  beforeAll(async () => {
    fake = await startTdsFake({ username: USER, password: PASSWORD });
  });
  afterAll(() => fake.close());

  it('is up when it signs in and the query returns', async () => {
    const target = `127.0.0.1:${fake.port}`;
    expect(await runCheck(probeCheck(mssql(target, { username: USER, database: 'erp' }), { password: PASSWORD }))).toMatchObject({
      status: 'up',
      message: `signed in as ${USER}`,
    });
    const queried = await runCheck(probeCheck(mssql(target, { username: USER, query: 'SELECT 1' }), { password: PASSWORD }));
    expect(queried).toMatchObject({ status: 'up', message: 'query returned 1 row' });
    expect(fake.batches).toContain('SELECT 1');
  });

  it("is down with a wrong password, and with the server's words when the query fails", async () => {
    const target = `127.0.0.1:${fake.port}`;
    const wrong = await runCheck(probeCheck(mssql(target, { username: USER }), { password: `${PASSWORD}-wrong` }));
    expect(wrong).toMatchObject({ status: 'down', message: `authentication failed for user "${USER}"` });
    const badQuery = await runCheck(probeCheck(mssql(target, { username: USER, query: 'SELECT * FROM no_such_table' }), { password: PASSWORD }));
    expect(badQuery).toMatchObject({ status: 'down', message: "query failed: Invalid object name 'no_such_table'." });
    const dropped = await runCheck(probeCheck(mssql(target, { username: USER, query: 'SELECT svc_drop_connection' }), { password: PASSWORD }));
    expect(dropped.status).toBe('down');
    // Whether the socket sees a reset or an orderly close depends on timing; either is said plainly.
    expect(dropped.message).toMatch(new RegExp(`^(query failed: connection closed|connection reset) by 127\\.0\\.0\\.1:${fake.port}$`));
  });
});

// MS-TDS 2.2.6.5 (PRELOGIN ENCRYPTION) and 3.2.5.2: the TLS handshake travels in PRELOGIN
// packets, then LOGIN7 and everything after it in TLS records on the socket.
describe('mssql probe against the fake with encryption required (Force Encryption, ENCRYPT_REQ)', () => {
  let fake: TdsFake;
  beforeAll(async () => {
    fake = await startTdsFake({ username: USER, password: PASSWORD }, { encryption: 'required', tls: makeCertificates().selfSigned });
  });
  afterAll(() => fake.close());

  it('is up over TLS when the server certificate is trusted (ignoreTlsErrors), the query included', async () => {
    const target = `127.0.0.1:${fake.port}`;
    const config = { username: USER, query: 'SELECT 42', useTls: true, ignoreTlsErrors: true };
    expect(await runCheck(probeCheck(mssql(target, config), { password: PASSWORD }))).toMatchObject({ status: 'up', message: 'query returned 1 row' });
    expect(fake.batches).toEqual(['SELECT 42']);
    const wrong = await runCheck(probeCheck(mssql(target, config), { password: `${PASSWORD}-wrong` }));
    expect(wrong).toMatchObject({ status: 'down', message: `authentication failed for user "${USER}"` });
    expect(fake.negotiated).toEqual(['full', 'full']);
  });

  it('is down naming the certificate when it is not trusted, and down when the probe does not encrypt', async () => {
    const target = `127.0.0.1:${fake.port}`;
    const untrusted = await runCheck(probeCheck(mssql(target, { username: USER, useTls: true }), { password: PASSWORD }));
    expect(untrusted).toMatchObject({ status: 'down', message: `TLS handshake with ${target} failed: DEPTH_ZERO_SELF_SIGNED_CERT` });
    const clear = await runCheck(probeCheck(mssql(target, { username: USER }), { password: PASSWORD }));
    expect(clear).toMatchObject({ status: 'down', message: 'the server requires encryption (turn on useTls)' });
    expect(fake.negotiated).toEqual(['full', 'full', 'full', 'refused']);
    expect(fake.batches).toEqual(['SELECT 42']);
  });
});

describe('mssql probe against the fake with optional encryption (a certificate, ENCRYPT_OFF)', () => {
  let fake: TdsFake;
  beforeAll(async () => {
    fake = await startTdsFake({ username: USER, password: PASSWORD }, { encryption: 'optional', tls: makeCertificates().selfSigned });
  });
  afterAll(() => fake.close());

  it('encrypts everything when the probe asks for TLS, and nothing when it does not', async () => {
    const target = `127.0.0.1:${fake.port}`;
    const encrypted = await runCheck(probeCheck(mssql(target, { username: USER, useTls: true, ignoreTlsErrors: true }), { password: PASSWORD }));
    expect(encrypted).toMatchObject({ status: 'up', message: `signed in as ${USER}` });
    // tedious sends ENCRYPT_NOT_SUP, not ENCRYPT_OFF, when it does not encrypt: so not even its LOGIN7 is.
    const clear = await runCheck(probeCheck(mssql(target, { username: USER }), { password: PASSWORD }));
    expect(clear).toMatchObject({ status: 'up', message: `signed in as ${USER}` });
    expect(fake.negotiated).toEqual(['full', 'none']);
  });

  it('encrypts the LOGIN7 alone for a client offering ENCRYPT_OFF, then answers in the clear', async () => {
    const result = await signInWithLoginOnlyEncryption(fake.port, { username: USER, password: PASSWORD }, 'SELECT 7');
    expect(result.encryption).toBe(0x00); // ENCRYPT_OFF
    expect(result.protocol).toBe('TLSv1.2');
    // Tabular results (0x04) read without TLS: LOGINACK (0xAD), then a ROW (0xD1) holding 7.
    expect(result.loginAnswer.type).toBe(0x04);
    expect(result.loginAnswer.message.includes(Buffer.from([0xad]))).toBe(true);
    expect(result.batchAnswer.type).toBe(0x04);
    expect(result.batchAnswer.message.includes(Buffer.from([0xd1, 4, 7, 0, 0, 0]))).toBe(true);
    expect(fake.negotiated.at(-1)).toBe('login');
    expect(fake.batches).toContain('SELECT 7');
  });
});

describe('mssql probe, refused and timeout', () => {
  let listener: SilentListener;
  beforeAll(async () => {
    listener = await startSilentListener();
  });
  afterAll(() => listener.close());

  it('is down when nothing listens', async () => {
    const port = await freePort();
    expect(await runCheck(probeCheck(mssql(`127.0.0.1:${port}`, { username: USER })))).toMatchObject({
      status: 'down',
      message: `connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });

  it('ends at thresholds.timeoutMs against a server that never answers, and closes its socket', async () => {
    await expectTimeoutTearsDown(probeCheck(mssql(`127.0.0.1:${listener.port}`, { username: USER }, 500)), listener);
  });
});
