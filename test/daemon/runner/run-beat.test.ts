import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../daemon/clock.js';
import { ensureStates } from '../../../daemon/runner/check-states.js';
import { onBeat, RUN_BEAT_MS } from '../../../daemon/runner/beat.js';
import type { Runner } from '../../../daemon/runner/runner.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { testRunner } from '../../support/runner.js';

const CHECKS = 6;

// A claimed run waits for the runner's beat: runs due within one beat start together (one turn
// of the event loop for all of them), never before their due time.
describe.each(DATABASE_KINDS)('runs start on the runner beat [%s]', (kind) => {
  let daemon: TestDaemon;
  let target: Server;
  let runner: Runner | undefined;

  beforeAll(async () => {
    target = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    daemon = await startTestDaemon(kind);
  });
  afterAll(async () => {
    await runner?.stop();
    await daemon?.stop();
    target?.closeAllConnections();
    target?.close();
  });

  it('starts each run on the first beat at or after its due time', async () => {
    expect(RUN_BEAT_MS).toBeGreaterThanOrEqual(100);
    const admin = await daemon.adminToken();
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    const uids: string[] = [];
    for (let i = 0; i < CHECKS; i++) {
      const created = await daemon.request('POST', '/orgs/default/checks', {
        token: admin,
        body: { name: `Beat ${i}`, slug: `beat-${i}`, type: 'http', intervalSeconds: 60, target: url },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      uids.push((await daemon.deps.db.kysely.selectFrom('checks').select('uid').where('slug', '=', `beat-${i}`).executeTakeFirstOrThrow()).uid);
    }
    await ensureStates(daemon.deps.db.kysely, Date.now());
    // Due times off the beat, a few of them inside one beat.
    const first = onBeat(Date.now() + 1500) + 7;
    const due = new Map(uids.map((uid, i) => [uid, first + i * 37]));
    for (const [uid, at] of due) {
      await daemon.deps.db.kysely.updateTable('check_states').set({ next_run_at: at }).where('check_uid', '=', uid).execute();
    }

    runner = testRunner(daemon, systemClock);
    runner.start();
    const started = async () =>
      daemon.deps.db.kysely
        .selectFrom('check_results as r')
        .innerJoin('check_states as s', 's.series', 'r.series')
        .select(['s.check_uid', 'r.at'])
        .where('s.check_uid', 'in', uids)
        .execute();
    let rows = await started();
    for (const deadline = Date.now() + 15_000; rows.length < CHECKS && Date.now() < deadline; rows = await started()) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(rows).toHaveLength(CHECKS);
    for (const row of rows) {
      const beat = onBeat(due.get(row.check_uid)!);
      expect(beat).toBeGreaterThan(due.get(row.check_uid)!);
      // Not before the beat, and soon after it (a busy machine may be late to fire a timer). Node
      // fires a timer by its own monotonic clock, which can read a millisecond ahead of Date.now():
      // the run may then record a start 1 ms before the beat (and still well after its due time).
      expect(Number(row.at), `due ${due.get(row.check_uid)}, beat ${beat}`).toBeGreaterThanOrEqual(beat - 1);
      expect(Number(row.at)).toBeGreaterThan(due.get(row.check_uid)!);
      expect(Number(row.at) - beat).toBeLessThan(1000);
    }
  }, 30_000);
});
