import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../daemon/clock.js';
import { ensureStates } from '../../../daemon/runner/check-states.js';
import { onBeat } from '../../../daemon/runner/beat.js';
import type { Runner } from '../../../daemon/runner/runner.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { testRunner, until } from '../../support/runner.js';

// A runner claims a run up to a second before it is due, and a heartbeat's run judges the
// deadline by the last ping as claimed. A ping that comes between the claim and the run records
// its own result; the run's verdict, judged without that ping, is stale and is not written
// (daemon/runner/result-writer.ts, `staleVerdict`). Without that, a job pinging just before the
// deadline's run got a false "no ping" failure, and its incident.
describe.each(DATABASE_KINDS)('a ping between a heartbeat run’s claim and its verdict [%s]', (kind) => {
  let daemon: TestDaemon;
  let runner: Runner | undefined;

  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
  });
  afterAll(async () => {
    await runner?.stop();
    await daemon?.stop();
  });

  it('keeps the ping’s up and drops the run’s verdict made without it', async () => {
    const admin = await daemon.adminToken();
    const created = await daemon.request('POST', '/orgs/default/checks', {
      token: admin,
      body: { name: 'Late job', slug: 'late-job', type: 'heartbeat', intervalSeconds: 60, config: { periodSeconds: 60, graceSeconds: 30 } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { uid } = await daemon.deps.db.kysely.selectFrom('checks').select('uid').where('slug', '=', 'late-job').executeTakeFirstOrThrow();
    await ensureStates(daemon.deps.db.kysely, Date.now());
    // Armed ten minutes ago and never pinged: late. The deadline's run is due in 1.6 s.
    const dueAt = onBeat(Date.now() + 1600);
    await daemon.deps.db.kysely
      .updateTable('check_states')
      .set({ armed_at: Date.now() - 600_000, last_ping_at: null, next_run_at: dueAt })
      .where('check_uid', '=', uid)
      .execute();
    const state = () =>
      daemon.deps.db.kysely.selectFrom('check_states').select(['series', 'lease_owner', 'ping_token']).where('check_uid', '=', uid).executeTakeFirstOrThrow();

    runner = testRunner(daemon, systemClock);
    runner.start();
    // Claimed (half a second to a second ahead), not run yet: the job pings now.
    await until(async () => (await state()).lease_owner !== null, 5000);
    const claimed = await state();
    expect(claimed.lease_owner).toBe(runner.owner);
    expect(runner.stats().started, 'the run started before the ping could be sent').toBe(0);
    expect((await daemon.request('GET', `/ping/${claimed.ping_token}`)).status).toBe(200);

    // The run happens and its claim is released.
    await until(async () => runner!.stats().started > 0 && (await state()).lease_owner === null);
    expect(runner.stats().started).toBe(1);
    expect((await state()).lease_owner).toBeNull();

    // One result, the ping's (status code 0: up); no "no ping yet" failure.
    const results = await daemon.deps.db.kysely.selectFrom('check_results').select(['status', 'message']).where('series', '=', claimed.series).execute();
    expect(results).toEqual([expect.objectContaining({ status: 0 })]);
    const view = (await daemon.request('GET', '/orgs/default/checks/late-job', { token: admin })).body;
    expect(view).toMatchObject({ state: 'up', lastResult: { status: 'up', message: 'ok' } });
  }, 30_000);
});
