import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureService, freePort } from '../support/local-servers.js';
import { expectTimeoutTearsDown, probeCheck, runCheck, startSilentListener, type SilentListener } from '../support/probe-runs.js';

const PASSWORD = 'mysql-probe-secret-4711';
// Names of this run's own, so that concurrent runs on one server do not meet.
const USER = `svc_probe_${randomBytes(3).toString('hex')}`;
const DATABASE = USER;
const server = await ensureService('mariadb', 3306);

const mysqlCheck = (target: string, config: Record<string, unknown> = {}, timeoutMs = 5000) =>
  ({ name: 'db', type: 'mysql', target, config, thresholds: { timeoutMs } }) as const;

describe.skipIf(!server.ok)('mysql probe against the local MariaDB', () => {
  beforeAll(async () => {
    // The test's own user, with a password, on a database of its own (root signs in without one).
    const admin = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
    await admin.query(`CREATE DATABASE IF NOT EXISTS ${DATABASE}`);
    await admin.query(`CREATE USER IF NOT EXISTS '${USER}'@'%' IDENTIFIED BY '${PASSWORD}'`);
    await admin.query(`CREATE USER IF NOT EXISTS '${USER}'@'localhost' IDENTIFIED BY '${PASSWORD}'`);
    await admin.query(`GRANT SELECT ON ${DATABASE}.* TO '${USER}'@'%'`);
    await admin.query(`GRANT SELECT ON ${DATABASE}.* TO '${USER}'@'localhost'`);
    await admin.end();
  });
  afterAll(async () => {
    const admin = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
    await admin.query(`DROP USER IF EXISTS '${USER}'@'%', '${USER}'@'localhost'`);
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
    await admin.end();
  });

  it('is up when it signs in with the password and runs the query', async () => {
    const signedIn = await runCheck(probeCheck(mysqlCheck('127.0.0.1:3306', { username: USER, database: DATABASE }), { password: PASSWORD }));
    expect(signedIn).toMatchObject({ status: 'up', message: `signed in as ${USER}` });
    const queried = await runCheck(
      probeCheck(mysqlCheck('127.0.0.1', { username: USER, database: DATABASE, query: 'SELECT 1 UNION SELECT 2' }), { password: PASSWORD }),
    );
    expect(queried).toMatchObject({ status: 'up', message: 'query returned 2 rows' });
  });

  it('is down with a wrong password, and the message names the user, not the password', async () => {
    const wrong = `${PASSWORD}-wrong`;
    const result = await runCheck(probeCheck(mysqlCheck('127.0.0.1:3306', { username: USER }), { password: wrong }));
    expect(result).toMatchObject({ status: 'down', message: `authentication failed for user "${USER}"` });
    expect(result.message).not.toContain(wrong);
  });

  it("is down with the server's words when the query fails", async () => {
    const result = await runCheck(
      probeCheck(mysqlCheck('127.0.0.1:3306', { username: USER, database: DATABASE, query: 'SELECT * FROM no_such_table' }), { password: PASSWORD }),
    );
    expect(result).toMatchObject({ status: 'down', message: `query failed: Table '${DATABASE}.no_such_table' doesn't exist` });
  });
});

describe('mysql probe, refused and timeout', () => {
  let listener: SilentListener;
  beforeAll(async () => {
    listener = await startSilentListener();
  });
  afterAll(() => listener.close());

  it('is down when nothing listens', async () => {
    const port = await freePort();
    const result = await runCheck(probeCheck(mysqlCheck(`127.0.0.1:${port}`, { username: USER })));
    expect(result).toMatchObject({ status: 'down', message: `connect ECONNREFUSED 127.0.0.1:${port}` });
  });

  it('ends at thresholds.timeoutMs against a server that never answers, and closes its socket', async () => {
    await expectTimeoutTearsDown(probeCheck(mysqlCheck(`127.0.0.1:${listener.port}`, { username: USER }, 500)), listener);
  });
});
