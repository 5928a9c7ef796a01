import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { claimDue } from '../../../daemon/runner/claim.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { testRunner } from '../../support/runner.js';

const CHECKS = 120;
const INTERVAL_S = 60;

describe.each(DATABASE_KINDS)('after a restart, an overdue check runs once, not again at its slot a moment later [%s]', (kind) => {
  const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
  let daemon: TestDaemon;
  let server: Server;

  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(200).end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    daemon = await startTestDaemon(kind, { clock });
    const admin = await daemon.adminToken();
    for (let i = 0; i < CHECKS; i += 20) {
      const made = await Promise.all(
        Array.from({ length: 20 }, (_, j) =>
          daemon.request('POST', '/orgs/default/checks', {
            token: admin,
            body: { name: `Site ${i + j}`, type: 'http', intervalSeconds: INTERVAL_S, target: `${url}/${i + j}`, thresholds: { timeoutMs: 2000 } },
          }),
        ),
      );
      expect(made.map((res) => res.status)).toEqual(new Array(20).fill(201));
    }
  });
  afterAll(async () => {
    await daemon.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const runsPerCheckSince = async (fromMs: number) => {
    const rows = await daemon.deps.db.kysely
      .selectFrom('check_states as s')
      .leftJoin('check_results as r', (join) => join.onRef('r.series', '=', 's.series').on('r.at', '>=', fromMs))
      .select(['s.series', (eb) => eb.fn.count<number>('r.at').as('runs')])
      .groupBy('s.series')
      .execute();
    return rows.map((row) => Number(row.runs));
  };

  it('runs each overdue check once at the restart, then on its grid at least half an interval later', async () => {
    // Before the restart: every check runs at its slot.
    const before = testRunner(daemon, clock);
    await before.tick();
    clock.advance(INTERVAL_S * 1000);
    await before.tick();
    expect(await runsPerCheckSince(0)).toEqual(new Array(CHECKS).fill(1));

    // Down for two and a half intervals: every check is overdue when a new runner starts.
    clock.advance(2.5 * INTERVAL_S * 1000);
    const restartedAt = clock.now().getTime();
    const after = testRunner(daemon, clock);
    await after.tick();
    expect(await runsPerCheckSince(restartedAt)).toEqual(new Array(CHECKS).fill(1));
    // The next half interval, second by second: no check runs a second time.
    for (let s = 1; s < INTERVAL_S / 2; s++) {
      clock.set(new Date(restartedAt + s * 1000));
      await after.tick();
    }
    expect(await runsPerCheckSince(restartedAt)).toEqual(new Array(CHECKS).fill(1));
    // Within one and a half intervals every check is back on its grid with exactly one more run.
    clock.set(new Date(restartedAt + 1.5 * INTERVAL_S * 1000));
    await after.tick();
    expect(await runsPerCheckSince(restartedAt)).toEqual(new Array(CHECKS).fill(2));
  });

  it('runs each check once after a runner died holding its claims (due at the lease end, off the grid)', async () => {
    // A runner claims every check's next run and dies (kill -9): each is due again at its lease end.
    const due = Math.max(...(await daemon.deps.db.kysely.selectFrom('check_states').select('next_run_at').execute()).map((row) => Number(row.next_run_at)));
    clock.set(new Date(due));
    const claimed = await claimDue(daemon.deps.db, 'dead-runner', { nowMs: due, horizonMs: due, limit: 1000, leaseMs: 7_300 });
    expect(claimed).toHaveLength(CHECKS);
    clock.advance(2000 + 7_300 + 1);
    const restartedAt = clock.now().getTime();
    const after = testRunner(daemon, clock);
    await after.tick();
    expect(await runsPerCheckSince(restartedAt)).toEqual(new Array(CHECKS).fill(1));
    for (let s = 1; s < INTERVAL_S / 2; s++) {
      clock.set(new Date(restartedAt + s * 1000));
      await after.tick();
    }
    expect(await runsPerCheckSince(restartedAt)).toEqual(new Array(CHECKS).fill(1));
    clock.set(new Date(restartedAt + 1.5 * INTERVAL_S * 1000));
    await after.tick();
    expect(await runsPerCheckSince(restartedAt)).toEqual(new Array(CHECKS).fill(2));
  });
});
