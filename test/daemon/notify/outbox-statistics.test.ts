import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIncident } from '../../../daemon/incidents/incident-lifecycle.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

// A burst of messages lands in an outbox whose planner statistics still say next to nothing is
// pending; the dispatcher refreshes them when a lease comes back full (daemon/notify/outbox.ts
// refreshOutboxStatistics), so the next leases walk the due index and stop at their batch.
describe.runIf(DATABASE_KINDS.includes('postgres'))('the outbox after a burst of incidents [postgres]', () => {
  let daemon: TestDaemon;
  let receiver: Server;
  const received = new Set<string>();

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      received.add(String(req.headers['x-svc-delivery']));
      req.resume().on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    daemon = await startTestDaemon('postgres');
    const admin = await daemon.adminToken();
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const created = await daemon.request('POST', '/orgs/default/notification-channels', {
      token: admin,
      body: { name: 'hook', type: 'webhook', config: { url }, default: true },
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await daemon.stop();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  const lastAnalyze = async () =>
    (await sql<{ at: Date | null }>`select last_analyze as at from pg_stat_user_tables where relname = 'notification_outbox'`.execute(daemon.deps.db.kysely))
      .rows[0]?.at ?? null;

  it('refreshes the statistics once a lease comes back full, and delivers every message', async () => {
    expect(await lastAnalyze()).toBeNull();
    const { kysely } = daemon.deps.db;
    const org = await kysely.selectFrom('organizations').select('uid').where('slug', '=', 'default').executeTakeFirstOrThrow();
    await kysely.transaction().execute(async (trx) => {
      for (let i = 0; i < 60; i++) await openIncident(trx, { organizationUid: org.uid, title: `Burst ${i}`, check: null, openedBy: null }, new Date());
    });
    const deadline = Date.now() + 30_000;
    while ((received.size < 60 || (await lastAnalyze()) === null) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received.size).toBe(60);
    expect(await lastAnalyze()).toBeInstanceOf(Date);
  });
});
