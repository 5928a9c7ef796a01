import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import oracledb from 'oracledb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOracleFake, type OracleFake } from '../support/fakes/oracle-fake.js';
import { freePort } from '../support/local-servers.js';
import { makeCertificates, type KeyPair } from './support/certificates.js';
import { expectTimeoutTearsDown, probeCheck, runCheck, startSilentListener, type SilentListener } from '../support/probe-runs.js';

const USER = 'monitor';
const PASSWORD = 'oracle-probe-secret-4711';

const oracle = (target: string, config: Record<string, unknown> = {}, timeoutMs = 5000) =>
  ({ name: 'billing', type: 'oracle', target, config, thresholds: { timeoutMs } }) as const;

describe('oracle probe against a protocol-level fake (TNS listener, TTC negotiation, O5LOGON 12c sign-in, SELECT 1 FROM DUAL)', () => {
  let fake: OracleFake;
  beforeAll(async () => {
    fake = await startOracleFake({ service: 'BILLING', username: USER, password: PASSWORD });
  });
  afterAll(() => fake.close());

  it('is up when it signs in with the password, and when the query returns its row', async () => {
    const result = await runCheck(probeCheck(oracle(`127.0.0.1:${fake.port}`, { database: 'BILLING', username: USER }), { password: PASSWORD }));
    expect(result).toMatchObject({ status: 'up', message: `signed in as ${USER}` });
    expect(fake.signIns).toBe(1);
    const queried = await runCheck(
      probeCheck(oracle(`127.0.0.1:${fake.port}`, { database: 'BILLING', username: USER, query: 'SELECT 1 FROM DUAL' }), { password: PASSWORD }),
    );
    expect(queried).toMatchObject({ status: 'up', message: 'query returned 1 row' });
  });

  it('is down with a wrong password, an unknown service, or a failing query', async () => {
    const target = `127.0.0.1:${fake.port}`;
    const wrong = await runCheck(probeCheck(oracle(target, { database: 'BILLING', username: USER }), { password: `${PASSWORD}-wrong` }));
    expect(wrong).toMatchObject({ status: 'down', message: `authentication failed for user "${USER}"` });
    const service = await runCheck(probeCheck(oracle(target, { database: 'PAYROLL', username: USER }), { password: PASSWORD }));
    expect(service.status).toBe('down');
    expect(service.message).toMatch(new RegExp(`^NJS-518: .*PAYROLL.*not registered with the listener at host 127\\.0\\.0\\.1 port ${fake.port}`));
    const query = await runCheck(probeCheck(oracle(target, { database: 'BILLING', username: USER, query: 'SELECT * FROM orders' }), { password: PASSWORD }));
    expect(query).toMatchObject({ status: 'down', message: 'query failed: ORA-00942: table or view does not exist' });
  });
});

describe('oracle probe against the fake listening as TCPS (useTls)', () => {
  let fake: OracleFake;
  let selfSigned: KeyPair;
  beforeAll(async () => {
    selfSigned = makeCertificates().selfSigned;
    fake = await startOracleFake({ service: 'BILLING', username: USER, password: PASSWORD, tls: selfSigned });
  });
  afterAll(() => fake.close());

  // The probe has no setting for a CA of its own, and thin mode trusts only Node's CAs or a
  // wallet's: the accepted case is the driver itself with a PEM wallet (ewallet.pem, the
  // certificate and its key) holding the fake's certificate, as node-oracledb's TLS docs describe.
  it('signs in a driver that trusts its certificate through a wallet, and answers the query', async () => {
    const wallet = mkdtempSync(join(tmpdir(), 'svc-oracle-wallet-'));
    writeFileSync(join(wallet, 'ewallet.pem'), selfSigned.cert + selfSigned.key);
    const descriptor = `(DESCRIPTION=(ADDRESS=(PROTOCOL=TCPS)(HOST=localhost)(PORT=${fake.port}))(CONNECT_DATA=(SERVICE_NAME=BILLING))(SECURITY=(SSL_SERVER_DN_MATCH=yes)))`;
    try {
      const connection = await oracledb.getConnection({ user: USER, password: PASSWORD, walletLocation: wallet, connectString: descriptor });
      expect((await connection.execute('SELECT 1 FROM DUAL')).rows).toEqual([[1]]);
      await connection.close();
      expect(fake.signIns).toBe(1);
    } finally {
      rmSync(wallet, { recursive: true, force: true });
    }
  });

  it('is down naming the certificate when it is not trusted, ignoreTlsErrors or not', async () => {
    const target = `127.0.0.1:${fake.port}`;
    const signInsBefore = fake.signIns;
    const untrusted = await runCheck(probeCheck(oracle(target, { database: 'BILLING', username: USER, useTls: true }), { password: PASSWORD }));
    const refused = `NJS-506: connection to host 127.0.0.1 port ${fake.port} encountered TLS handshake failure: self-signed certificate`;
    expect(untrusted).toMatchObject({ status: 'down', message: refused });
    const relaxed = await runCheck(
      probeCheck(oracle(target, { database: 'BILLING', username: USER, useTls: true, ignoreTlsErrors: true }), { password: PASSWORD }),
    );
    // Thin mode verifies the chain whatever SSL_SERVER_DN_MATCH says: ignoreTlsErrors relaxes the name only.
    expect(relaxed).toMatchObject({ status: 'down', message: refused });
    expect(fake.signIns).toBe(signInsBefore);
  });
});

describe('oracle probe, refused and timeout', () => {
  let silent: SilentListener;
  beforeAll(async () => {
    silent = await startSilentListener();
  });
  afterAll(() => silent.close());

  it('is down when nothing listens', async () => {
    const port = await freePort();
    const result = await runCheck(probeCheck(oracle(`127.0.0.1:${port}`, { database: 'BILLING', username: USER }), { password: PASSWORD }));
    expect(result).toMatchObject({ status: 'down', message: `connect ECONNREFUSED 127.0.0.1:${port}` });
  });

  it('ends at thresholds.timeoutMs against a listener that never answers, and closes its socket', async () => {
    await expectTimeoutTearsDown(probeCheck(oracle(`127.0.0.1:${silent.port}`, { database: 'BILLING', username: USER }, 500), { password: PASSWORD }), silent);
  });
});
