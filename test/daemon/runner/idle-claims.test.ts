import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../daemon/clock.js';
import { ensureStates } from '../../../daemon/runner/check-states.js';
import type { Runner } from '../../../daemon/runner/runner.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { testRunner, until } from '../../support/runner.js';

// A claim is a write transaction. A runner whose checks are not due within its lookahead finds
// that out with one read of the due index and claims nothing (daemon/runner/claim.ts,
// `earliestDue`): an idle daemon opens no transaction a poll. Claims are counted by the
// runner's `svc_runner_claim_seconds` histogram, observed once per claim made.
describe.each(DATABASE_KINDS)('a runner with nothing due makes no claim [%s]', (kind) => {
  let daemon: TestDaemon;
  let runner: Runner | undefined;

  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
  });
  afterAll(async () => {
    await runner?.stop();
    await daemon?.stop();
  });

  const claimsMade = async () => {
    const metric = await daemon.deps.metrics.runnerClaimSeconds.get();
    return metric.values.find((value) => value.metricName?.endsWith('_count'))?.value ?? 0;
  };

  it('claims nothing while the only check is due in ten minutes, and claims its run once it is due', async () => {
    const admin = await daemon.adminToken();
    const created = await daemon.request('POST', '/orgs/default/checks', {
      token: admin,
      // A heartbeat check: its run reads the deadline and touches no network.
      body: { name: 'Idle', slug: 'idle', type: 'heartbeat', intervalSeconds: 60, config: { periodSeconds: 3600, graceSeconds: 60 } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { uid } = await daemon.deps.db.kysely.selectFrom('checks').select('uid').where('slug', '=', 'idle').executeTakeFirstOrThrow();
    await ensureStates(daemon.deps.db.kysely, Date.now());
    await daemon.deps.db.kysely
      .updateTable('check_states')
      .set({ next_run_at: Date.now() + 600_000 })
      .where('check_uid', '=', uid)
      .execute();

    runner = testRunner(daemon, systemClock);
    const before = await claimsMade();
    runner.start();
    // Several polls of the runner (one every 500 ms).
    await sleep(2000);
    expect(await claimsMade()).toBe(before);

    // Due now: a following poll claims it and runs it.
    await daemon.deps.db.kysely.updateTable('check_states').set({ next_run_at: Date.now() }).where('check_uid', '=', uid).execute();
    await until(() => runner!.stats().started > 0);
    expect(runner.stats().started).toBe(1);
    expect(await claimsMade()).toBeGreaterThan(before);
  }, 30_000);
});
