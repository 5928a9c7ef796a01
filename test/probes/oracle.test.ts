import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOracleFake, type OracleFake } from '../support/fakes/oracle-fake.js';
import { freePort } from '../support/local-servers.js';
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
