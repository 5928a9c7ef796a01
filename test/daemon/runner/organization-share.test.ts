import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../daemon/clock.js';
import { ensureStates } from '../../../daemon/runner/check-states.js';
import type { Runner } from '../../../daemon/runner/runner.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { testRunner } from '../../support/runner.js';

// One organization's checks all hang (a server that accepts and never answers); another
// organization's check is due just after them. With the runner's concurrency at 2 and each
// organization's share at 50 %, the hanging organization holds one slot and the other runs at once.
describe.each(DATABASE_KINDS)("one organization's hanging checks do not delay another's [%s]", (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  let hanging: TcpServer;
  const held = new Set<Socket>();
  let fast: Server;
  let runner: Runner | undefined;

  beforeAll(async () => {
    hanging = createTcpServer((socket) => {
      held.add(socket);
      socket.on('error', () => {});
    });
    fast = createServer((_req, res) => res.end('ok'));
    await Promise.all([
      new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve)),
      new Promise<void>((resolve) => fast.listen(0, '127.0.0.1', resolve)),
    ]);
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
    expect((await daemon.request('POST', '/orgs', { token: admin, body: { slug: 'beta', name: 'Beta' } })).status).toBe(201);
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await runner?.stop();
    await daemon?.stop();
    hanging?.close();
    fast?.closeAllConnections();
    fast?.close();
  });

  const results = async (uids: string[]) =>
    Number(
      (
        await daemon.deps.db.kysely
          .selectFrom('check_results as r')
          .innerJoin('check_states as s', 's.series', 'r.series')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('s.check_uid', 'in', uids)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('runs the other organization on schedule while the slow one holds only its share', async () => {
    const create = async (org: string, slug: string, target: string) => {
      const created = await daemon.request('POST', `/orgs/${org}/checks`, {
        token: admin,
        body: { name: slug, slug, type: 'http', intervalSeconds: 60, target, thresholds: { timeoutMs: 5000 } },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return (await daemon.deps.db.kysely.selectFrom('checks').select('uid').where('slug', '=', slug).executeTakeFirstOrThrow()).uid;
    };
    const hangingTarget = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`;
    const slow = [
      await create('default', 'slow-1', hangingTarget),
      await create('default', 'slow-2', hangingTarget),
      await create('default', 'slow-3', hangingTarget),
    ];
    const other = await create('beta', 'beta-fast', `http://127.0.0.1:${(fast.address() as AddressInfo).port}/`);
    const now = Date.now();
    await ensureStates(daemon.deps.db.kysely, now);
    // The slow organization's runs are due first.
    await daemon.deps.db.kysely
      .updateTable('check_states')
      .set({ next_run_at: now - 2000 })
      .where('check_uid', 'in', slow)
      .execute();
    await daemon.deps.db.kysely
      .updateTable('check_states')
      .set({ next_run_at: now - 1000 })
      .where('check_uid', '=', other)
      .execute();

    runner = testRunner(daemon, systemClock, { concurrency: 2, orgSharePercent: 50 });
    runner.start();
    while ((await results([other])) === 0) await new Promise((resolve) => setTimeout(resolve, 50));

    // The other organization's run is recorded while every run of the slow one is still hanging:
    // none of them has a result yet, and only one of them (its share) has connected.
    expect(await results(slow)).toBe(0);
    expect(held.size).toBe(1);
  }, 30_000);
});
