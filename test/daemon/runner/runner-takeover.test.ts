import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVC_BIN } from '../../support/cli.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { FAST_HASHING, TEST_SECRET_KEY, startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { startHitCounter, type HitCounter } from '../../support/hit-counter.js';

const CHECKS = 20;
const INTERVAL_S = 10;
const TIMEOUT_MS = 1000;
const LEASE_S = 2;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A `svc daemon` process that only runs checks, on the given database. */
function startRunnerProcess(dbUrl: string): ChildProcess {
  const child = spawn(process.execPath, [SVC_BIN, 'daemon'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      SVC_DB_URL: dbUrl,
      SVC_NODE_ROLE: 'runner',
      SVC_RUNNER_LEASE: `${LEASE_S}s`,
      SVC_LOG_LEVEL: 'warn',
      SVC_AUTH_JWT_SECRET: 'test-secret-test-secret-test-secret!',
      // On PostgreSQL the replicas share the test daemons' key (it must be given there); on
      // SQLite they read the key file the first daemon wrote beside the database.
      ...(dbUrl.startsWith('postgres') ? { SVC_SECRET_KEY: TEST_SECRET_KEY } : {}),
      ...FAST_HASHING,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return child;
}

// Real processes, real time: replicas as they run in production, one killed with SIGKILL (no
// draining), on each database.
describe.each(DATABASE_KINDS)('runner replicas as processes, one killed [%s]', (kind) => {
  let api: TestDaemon;
  let target: HitCounter;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    target = await startHitCounter();
    api = await startTestDaemon(kind);
    const admin = await api.adminToken();
    for (let i = 0; i < CHECKS; i++) {
      const created = await api.request('POST', '/orgs/default/checks', {
        token: admin,
        body: { name: `Site ${i}`, type: 'http', intervalSeconds: INTERVAL_S, target: `${target.url}/site-${i}`, thresholds: { timeoutMs: TIMEOUT_MS } },
      });
      expect(created.status).toBe(201);
    }
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await api?.stop();
    await target?.close();
  });

  it("never runs a check twice, and takes a killed replica's checks over when its leases end", { timeout: 60_000 }, async () => {
    const [doomed, survivor] = [startRunnerProcess(api.database.url), startRunnerProcess(api.database.url)];
    children.push(doomed, survivor);
    // Wait until the doomed replica holds claims, then kill it without any chance to drain.
    const db = api.deps.db.kysely;
    const started = Date.now();
    let held: string[] = [];
    while (held.length === 0) {
      if (Date.now() - started > 25_000) throw new Error('the replica never claimed a run');
      const rows = await db.selectFrom('check_states').select(['check_uid', 'lease_owner']).where('lease_owner', 'like', `%:${doomed.pid}:%`).execute();
      held = rows.map((row) => row.check_uid);
      if (held.length === 0) await sleep(20);
    }
    doomed.kill('SIGKILL');
    const killedAt = Date.now();
    const heldSlugs = (await db.selectFrom('checks').select('slug').where('uid', 'in', held).execute()).map((row) => row.slug);

    // The survivor takes each of them over within its interval plus the timeout and the lease.
    await sleep((INTERVAL_S + LEASE_S) * 1000 + TIMEOUT_MS + 1500);
    for (const slug of heldSlugs) {
      const after = (target.hits.get(`/${slug}`) ?? []).filter((at) => at > killedAt);
      expect(after.length, `${slug} after the kill`).toBeGreaterThanOrEqual(1);
    }
    // Every check kept running, and no run happened twice. Two runs of one due time would hit
    // the target within moments of each other; a late run only shortens the gap to the next
    // slot, so the bound sits well under the interval. The one exception is a run the killed
    // replica had claimed: it may have started it (the target saw it) without recording it, and
    // the take-over runs it again after the lease.
    for (let i = 0; i < CHECKS; i++) {
      const hits = target.hits.get(`/site-${i}`) ?? [];
      expect(hits.length, `site-${i}`).toBeGreaterThanOrEqual(1);
      const checked = heldSlugs.includes(`site-${i}`) ? hits.filter((at) => at > killedAt).slice(1) : hits;
      for (let h = 1; h < checked.length; h++) expect(checked[h] - checked[h - 1], `site-${i} gap`).toBeGreaterThan(2500);
    }
    survivor.kill('SIGTERM');
    await new Promise((resolve) => survivor.once('exit', resolve));
    expect(survivor.exitCode).toBe(0);
    // Draining released every claim.
    const leased = await db.selectFrom('check_states').select('lease_owner').where('lease_owner', 'like', `%:${survivor.pid}:%`).execute();
    expect(leased).toEqual([]);
  });
});
