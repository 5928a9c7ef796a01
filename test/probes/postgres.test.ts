import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureService, freePort, postgresBinaries, requireProgram, startPrivatePostgres, type PrivateServer } from '../support/local-servers.js';
import { expectTimeoutTearsDown, probeCheck, runCheck, startSilentListener, type SilentListener } from '../support/probe-runs.js';

const PASSWORD = 'pg-probe-secret-4711';
const shared = await ensureService('postgresql', 5432);
const binaries = requireProgram(postgresBinaries() ?? '/usr/lib/postgresql/bin');

const postgres = (target: string, config: Record<string, unknown> = {}, timeoutMs = 5000) =>
  ({ name: 'pg', type: 'postgres', target, config, thresholds: { timeoutMs } }) as const;

describe.skipIf(!shared.ok)('postgres probe against the shared PostgreSQL (trust auth)', () => {
  it('is up when it signs in, and reports the rows of the query', async () => {
    const signedIn = await runCheck(probeCheck(postgres('127.0.0.1:5432', { username: 'postgres', database: 'postgres' })));
    expect(signedIn).toMatchObject({ status: 'up', message: 'signed in as postgres' });
    const queried = await runCheck(
      probeCheck(postgres('127.0.0.1', { username: 'postgres', database: 'postgres', query: 'select * from generate_series(1, 3)' })),
    );
    expect(queried).toMatchObject({ status: 'up', message: 'query returned 3 rows' });
  });

  it("is down with the server's words when the query fails or the database does not exist", async () => {
    const badQuery = await runCheck(
      probeCheck(postgres('127.0.0.1:5432', { username: 'postgres', database: 'postgres', query: 'select * from no_such_table' })),
    );
    expect(badQuery).toMatchObject({ status: 'down', message: 'query failed: relation "no_such_table" does not exist' });
    const noDatabase = await runCheck(probeCheck(postgres('127.0.0.1:5432', { username: 'postgres', database: 'no_such_db' })));
    expect(noDatabase).toMatchObject({ status: 'down', message: 'database "no_such_db" does not exist' });
  });

  it('is down when nothing listens', async () => {
    const port = await freePort();
    const result = await runCheck(probeCheck(postgres(`127.0.0.1:${port}`, { username: 'postgres' })));
    expect(result).toMatchObject({ status: 'down', message: `connect ECONNREFUSED 127.0.0.1:${port}` });
  });
});

describe.skipIf(!binaries.ok)('postgres probe against a private cluster with SCRAM passwords', () => {
  let server: PrivateServer;
  beforeAll(async () => {
    server = await startPrivatePostgres(PASSWORD);
  });
  afterAll(() => server?.stop());

  it('is up with the right password and down, without the password in the message, with a wrong one', async () => {
    const target = `127.0.0.1:${server.port}`;
    const good = await runCheck(probeCheck(postgres(target, { username: 'postgres', database: 'postgres', query: 'select 1' }), { password: PASSWORD }));
    expect(good).toMatchObject({ status: 'up', message: 'query returned 1 row' });
    const wrong = await runCheck(probeCheck(postgres(target, { username: 'postgres', database: 'postgres' }), { password: `${PASSWORD}-wrong` }));
    expect(wrong).toEqual({ status: 'down', latencyMs: expect.any(Number), message: 'authentication failed for user "postgres"' });
    const none = await runCheck(probeCheck(postgres(target, { username: 'postgres', database: 'postgres' })));
    expect(none).toMatchObject({ status: 'down', message: 'the server asks user "postgres" for a password, and the check has none' });
  });

  it('connects over TLS: up when invalid certificates are accepted, down naming the certificate problem otherwise', async () => {
    const config = { username: 'postgres', database: 'postgres', query: 'select ssl from pg_stat_ssl where pid = pg_backend_pid() and ssl', useTls: true };
    const accepted = await runCheck(probeCheck(postgres(`127.0.0.1:${server.port}`, { ...config, ignoreTlsErrors: true }), { password: PASSWORD }));
    expect(accepted).toMatchObject({ status: 'up', message: 'query returned 1 row' });
    const checked = await runCheck(probeCheck(postgres(`127.0.0.1:${server.port}`, config), { password: PASSWORD }));
    expect(checked).toMatchObject({ status: 'down', message: `TLS handshake with 127.0.0.1:${server.port} failed: DEPTH_ZERO_SELF_SIGNED_CERT` });
  });
});

describe('postgres probe timeout', () => {
  let listener: SilentListener;
  beforeAll(async () => {
    listener = await startSilentListener();
  });
  afterAll(() => listener.close());

  it('ends at thresholds.timeoutMs against a server that never answers, and closes its socket', async () => {
    await expectTimeoutTearsDown(probeCheck(postgres(`127.0.0.1:${listener.port}`, { username: 'postgres' }, 500)), listener);
  });

  it('is down, saying so, when the egress policy refuses the address', async () => {
    const result = await runCheck(probeCheck(postgres('169.254.169.254:5432', { username: 'postgres' })));
    expect(result).toMatchObject({ status: 'down', message: 'egress policy refuses 169.254.169.254 (link-local, metadata or unspecified address)' });
  });
});
