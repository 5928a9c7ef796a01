import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTdsFake, type TdsFake } from '../support/fakes/tds-fake.js';
import { freePort } from '../support/local-servers.js';
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
