import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { channelsFor, mailRecipients } from '../../../daemon/notify/recipients.js';
import type { Runner } from '../../../daemon/runner/runner.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { testRunner } from '../../support/runner.js';

// Whom an incident's messages go to is read once per transaction (daemon/notify/recipients.ts):
// a batch of results with many checks down opens all their incidents in one transaction.
describe.each(DATABASE_KINDS)('the recipients of incident messages [%s]', (kind) => {
  const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
  let daemon: TestDaemon;
  let runner: Runner;
  let target: Server;
  let orgUid: string;
  let status = 200;
  const nextRun = async () => {
    clock.advance(30_000);
    await runner.tick();
  };
  const channels: Record<string, string> = {};

  beforeAll(async () => {
    target = createServer((_req, res) => res.writeHead(status).end());
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    daemon = await startTestDaemon(kind, { clock });
    // Every channel delivers to the local target: no message leaves loopback.
    runner = testRunner(daemon, clock);
    const admin = await daemon.adminToken();
    for (const [name, isDefault] of [
      ['default', true],
      ['chosen', false],
      ['spare', false],
    ] as const) {
      const res = await daemon.request('POST', '/orgs/default/notification-channels', {
        token: admin,
        body: { name, type: 'webhook', config: { url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/${name}` }, default: isDefault },
      });
      expect(res.status).toBe(201);
      channels[name] = res.body.uid;
    }
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    for (const name of ['Alpha', 'Beta', 'Gamma']) {
      const res = await daemon.request('POST', '/orgs/default/checks', {
        token: admin,
        body: { name, type: 'http', intervalSeconds: 30, target: url, thresholds: { failuresBeforeDown: 1, successesBeforeUp: 1, timeoutMs: 2000 } },
      });
      expect(res.status).toBe(201);
    }
    expect((await daemon.request('PUT', '/orgs/default/checks/beta/channels', { token: admin, body: { channels: [channels.chosen] } })).status).toBe(200);
    orgUid = (await daemon.deps.db.kysely.selectFrom('organizations').select('uid').where('slug', '=', 'default').executeTakeFirstOrThrow()).uid;
  });
  afterAll(async () => {
    await daemon.stop();
    await new Promise<void>((resolve) => target.close(() => resolve()));
  });

  it('sends each check of one batch to its own channels: the chosen ones, else the defaults', async () => {
    await nextRun();
    status = 503;
    await nextRun();
    const { db } = daemon.deps;
    const rows = await db.kysely
      .selectFrom('notification_outbox as o')
      .innerJoin('checks as c', 'c.uid', 'o.check_uid')
      .select(['c.slug', 'o.channel_uid'])
      // A channel's messages; the members' own e-mail goes beside them.
      .where('o.channel_uid', 'is not', null)
      .orderBy('c.slug')
      .execute();
    expect(rows).toEqual([
      { slug: 'alpha', channel_uid: channels.default },
      { slug: 'beta', channel_uid: channels.chosen },
      { slug: 'gamma', channel_uid: channels.default },
    ]);
  });

  it('reads the default channels and the members once in a transaction, and afresh in the next', async () => {
    const { kysely } = daemon.deps.db;
    const makeDefault = (db: typeof kysely, uid: string, isDefault: 0 | 1) =>
      db.updateTable('notification_channels').set({ is_default: isDefault }).where('uid', '=', uid).execute();
    await kysely.transaction().execute(async (trx) => {
      expect((await channelsFor(trx, orgUid, null)).map((c) => c.uid)).toEqual([channels.default]);
      await makeDefault(trx, channels.spare, 1);
      // Read already in this transaction: the same answer.
      expect((await channelsFor(trx, orgUid, null)).map((c) => c.uid)).toEqual([channels.default]);
      expect(await mailRecipients(trx, orgUid, 'incident.opened')).toBe(await mailRecipients(trx, orgUid, 'incident.opened'));
    });
    // Outside a transaction, and in the next one, each call reads.
    expect((await channelsFor(kysely, orgUid, null)).map((c) => c.uid).sort()).toEqual([channels.default, channels.spare].sort());
    await makeDefault(kysely, channels.spare, 0);
    expect((await channelsFor(kysely, orgUid, null)).map((c) => c.uid)).toEqual([channels.default]);
    const [before, after] = await kysely.transaction().execute(async (trx) => {
      expect((await channelsFor(trx, orgUid, null)).map((c) => c.uid)).toEqual([channels.default]);
      return [await mailRecipients(trx, orgUid, 'incident.opened'), await mailRecipients(trx, orgUid, 'incident.opened')];
    });
    expect(after).toBe(before);
    expect(await mailRecipients(kysely, orgUid, 'incident.opened')).not.toBe(before);
  });
});
