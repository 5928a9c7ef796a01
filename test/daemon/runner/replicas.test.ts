import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { startHitCounter, type HitCounter } from '../../support/hit-counter.js';
import { testRunner } from '../../support/runner.js';

const CHECKS = 40;
const ROUNDS = 6;

// Two daemons in one process share a PostgreSQL database; two SQLite connections in one
// process would block each other's thread, so SQLite replicas are tested as processes
// (runner-takeover.test.ts).
describe.runIf(DATABASE_KINDS.includes('postgres'))('two replicas on one PostgreSQL database', () => {
  const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
  let first: TestDaemon;
  let second: TestDaemon;
  let target: HitCounter;
  beforeAll(async () => {
    target = await startHitCounter();
    first = await startTestDaemon('postgres', { clock });
    second = await startTestDaemon('postgres', { clock, database: first.database });
    const admin = await first.adminToken();
    for (let i = 0; i < CHECKS; i++) {
      const created = await first.request('POST', '/orgs/default/checks', {
        token: admin,
        body: {
          name: `Site ${i}`,
          type: 'http',
          intervalSeconds: 10,
          target: `${target.url}/site-${i}`,
          thresholds: { timeoutMs: 2000, failuresBeforeDown: 1 },
        },
      });
      expect(created.status).toBe(201);
    }
  });
  afterAll(async () => {
    await second?.close();
    await first?.stop();
    await target?.close();
  });

  it('runs each due run exactly once: every check is hit once per interval, whichever replica claims it', async () => {
    const runners = [testRunner(first, clock), testRunner(second, clock)];
    for (let round = 0; round < ROUNDS; round++) {
      clock.advance(10_000);
      await Promise.all(runners.map((runner) => runner.tick()));
    }
    for (let i = 0; i < CHECKS; i++) expect(target.hits.get(`/site-${i}`), `site-${i}`).toHaveLength(ROUNDS);
    const started = runners.map((runner) => runner.stats().started);
    expect(started[0] + started[1]).toBe(CHECKS * ROUNDS);
    const stored = await first.deps.db.kysely
      .selectFrom('check_results')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(CHECKS * ROUNDS);
    const list = await first.request('GET', '/orgs/default/checks?state=up&limit=500', { token: await first.adminToken() });
    expect(list.body.items).toHaveLength(CHECKS);
    expect(list.body.items[0].lastResult).toMatchObject({ status: 'up' });
  });
});
