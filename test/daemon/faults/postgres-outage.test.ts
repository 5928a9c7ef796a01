import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresBinaries } from '../../support/local-servers.js';
import { hasTool } from '../../support/required-tool.js';
import { startRestartablePostgres, type RestartablePostgres } from '../../support/restartable-postgres.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { openDatabase } from '../../../daemon/db/connect.js';

const CHECKS = 6;
const available = hasTool(
  `${postgresBinaries() ?? '/usr/lib/postgresql/N/bin'}/pg_ctl`,
  'postgresql',
  'a private PostgreSQL cluster that the outage test stops and starts',
);

/** Polls `probe` until it holds; a sentinel for something the daemon does by itself. */
async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.runIf(available)('a PostgreSQL outage loses no result and answers 503 [postgres, private cluster]', () => {
  let cluster: RestartablePostgres;
  let daemon: TestDaemon;
  let target: Server;
  let admin: string;
  const received = new Map<string, number>();
  let holding = true;
  const held: ServerResponse[] = [];

  beforeAll(async () => {
    target = createServer((req, res) => {
      received.set(req.url!, (received.get(req.url!) ?? 0) + 1);
      if (holding) held.push(res);
      else res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    cluster = await startRestartablePostgres();
    daemon = await startTestDaemon('postgres', { database: { kind: 'postgres', url: cluster.url, drop: async () => {} }, env: { SVC_NODE_ROLE: 'all' } });
    admin = await daemon.adminToken();
    for (let i = 0; i < CHECKS; i++) {
      const made = await daemon.request('POST', '/orgs/default/checks', {
        token: admin,
        body: { name: `Site ${i}`, type: 'http', intervalSeconds: 10, target: `${url}/${i}`, thresholds: { timeoutMs: 10_000 } },
      });
      expect(made.status).toBe(201);
    }
  }, 120_000);
  afterAll(async () => {
    holding = false;
    for (const res of held.splice(0)) res.writeHead(200).end('ok');
    await daemon?.close().catch(() => {});
    cluster?.destroy();
    await new Promise<void>((resolve) => target?.close(() => resolve()));
  });

  it('answers 503 with Retry-After while down, keeps the results of runs that end meanwhile, and writes each once when it is back', async () => {
    const runner = daemon.runner!;
    // Runs under way when the database goes: the target holds their requests.
    await until('three runs in flight', () => held.length >= 3);
    cluster.stop();

    const list = await daemon.request('GET', '/orgs/default/checks', { token: admin });
    expect(list.status).toBe(503);
    expect(list.headers.get('retry-after')).toBe('5');
    expect(list.body.error).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringContaining('the database does not answer') });
    const signIn = await daemon.request('POST', '/auth/login', { body: { email: 'admin@svc.local', password: 'wrong-password' } });
    expect(signIn.status).toBe(503);
    expect((await daemon.request('GET', '/ready')).status).toBe(503);

    // The runs end during the outage: their results wait in memory.
    const released = held.length;
    holding = false;
    for (const res of held.splice(0)) res.writeHead(200).end('ok');
    await until('the finished runs to wait for the database', () => runner.resultsWaiting >= released);
    const waitingMetric = await daemon.deps.metrics.registry.getSingleMetricAsString('svc_runner_results_waiting');
    expect(waitingMetric).toMatch(new RegExp(`svc_runner_results_waiting ${runner.resultsWaiting}`));
    expect(daemon.logs.some((line) => line.includes('keeping them in memory until the database can be written'))).toBe(true);
    // The runner looks for due runs twice a second: the outage lasts until one of its looks has failed.
    await until('the runner to find the database gone', () => daemon.logs.some((line) => line.includes('runner: claiming due runs failed')));

    cluster.start();
    await until('the waiting results to be written', () => runner.resultsWaiting === 0);
    expect(daemon.logs.some((line) => /the database is back; wrote \d+ results that waited/.test(line))).toBe(true);
    expect((await daemon.request('GET', '/ready')).status).toBe(200);
    expect((await daemon.request('GET', '/orgs/default/checks', { token: admin })).status).toBe(200);
    // No stack was logged for the outage's API calls.
    expect(daemon.logs.filter((line) => line.includes('unexpected error'))).toEqual([]);
    // However many looks failed, the outage is one line (a reminder a minute), and one when it is over.
    const claimFailures = daemon.logs.filter((line) => line.includes('runner: claiming due runs failed'));
    expect(claimFailures.length).toBeGreaterThanOrEqual(1);
    expect(claimFailures.length).toBeLessThanOrEqual(2);
    await until('the runner to claim again', () => daemon.logs.some((line) => line.includes('runner: claiming due runs works again')));

    // Drain (runs under way finish and are written), then compare: one result per request served.
    await daemon.close();
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ target: string; results: number }>(
        `select c.target, count(r.at)::int as results from checks c join check_states s on s.check_uid = c.uid
           left join check_results r on r.series = s.series group by c.target`,
      );
      const stored = Object.fromEntries(rows.map((row) => [new URL(row.target).pathname, row.results]));
      expect(stored).toEqual(Object.fromEntries(Array.from({ length: CHECKS }, (_, i) => [`/${i}`, received.get(`/${i}`) ?? 0])));
      expect(Object.values(stored).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(released);
    } finally {
      await client.end();
    }
  }, 180_000);

  it('a connection lent to a transaction when the server goes fails that transaction, not the process', async () => {
    const db = openDatabase(cluster.url);
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const transaction = db.kysely.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        // Between two statements the connection is lent out: the server's goodbye reaches it there.
        cluster.stop();
        await new Promise((resolve) => setTimeout(resolve, 500));
        await sql`select 1`.execute(trx);
      });
      await expect(transaction).rejects.toThrow();
      expect(uncaught).toEqual([]);
      cluster.start();
      expect((await sql<{ one: number }>`select 1 as one`.execute(db.kysely)).rows).toEqual([{ one: 1 }]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await db.close();
    }
  }, 120_000);
});
