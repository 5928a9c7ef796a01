import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import type { TestDaemon } from '../../support/daemon.js';
import { startEngineSuite, type EngineSuite } from '../../support/engine-suite.js';

// A covered check that fails during a window opens nothing and sends nothing; when the window
// ends and it still fails, its incident opens and is notified then. The runner, the target and
// the webhook receiver are real, on loopback.

describe.each(DATABASE_KINDS)('a maintenance window holds back incidents and notifications [%s]', (kind) => {
  let suite: EngineSuite;
  let daemon: TestDaemon;
  let admin: string;
  const nextRun = () => suite.nextRun();
  const check = async () => (await daemon.request('GET', '/orgs/default/checks/shop', { token: admin })).body;
  const incidents = () => daemon.deps.db.kysely.selectFrom('incidents').select(['uid', 'status']).execute();
  const outbox = () => daemon.deps.db.kysely.selectFrom('notification_outbox').select(['event', 'incident_uid']).orderBy('uid').execute();

  beforeAll(async () => {
    suite = await startEngineSuite(kind);
    ({ daemon, admin } = suite);
    // The window names no check: it covers the shop's checks by label, the check comes later.
    const window = await daemon.request('POST', '/orgs/default/maintenance-windows', {
      token: admin,
      body: { title: 'Database upgrade', startsAt: '2026-03-01T10:01:00Z', endsAt: '2026-03-01T10:05:00Z', labels: { team: 'shop' } },
    });
    expect(window.status).toBe(201);
    await suite.createCheck('Shop', { labels: { team: 'shop' } });
  });
  afterAll(() => suite?.stop());

  it('runs and keeps the results in the window, opens and sends nothing, and opens the incident after it', async () => {
    await nextRun(); // 10:00:30
    expect((await check()).state).toBe('up');
    suite.status = 503;
    let inWindow = 0;
    while (suite.clock.now().getTime() < Date.parse('2026-03-01T10:04:30Z')) {
      await nextRun();
      if (suite.clock.now().getTime() >= Date.parse('2026-03-01T10:01:00Z')) inWindow++;
    }
    expect(inWindow).toBeGreaterThanOrEqual(6);
    const during = await check();
    expect(during.state).toBe('maintenance');
    expect(await incidents()).toEqual([]);
    expect(await outbox()).toEqual([]);
    // The results are kept...
    const results = await daemon.request('GET', '/orgs/default/checks/shop/results', { token: admin });
    expect(results.body.items.filter((r: { status: string }) => r.status === 'down').length).toBeGreaterThanOrEqual(6);
    // ...but the uptime leaves the window out: only the successes before it count.
    const uptime = await daemon.request('GET', '/orgs/default/checks/shop/uptime?window=24h', { token: admin });
    expect(uptime.body).toMatchObject({ uptimePercent: 100, downRuns: 0 });
    // The list, its filter and the overview count the state.
    const listed = await daemon.request('GET', '/orgs/default/checks?state=maintenance', { token: admin });
    expect(listed.body.items.map((c: { slug: string }) => c.slug)).toEqual(['shop']);
    const counts = await daemon.request('GET', '/orgs/default/check-states', { token: admin });
    expect(counts.body.counts).toMatchObject({ maintenance: 1, down: 0 });
    const windows = await daemon.request('GET', '/orgs/default/maintenance-windows?check=shop', { token: admin });
    expect(windows.body.items).toMatchObject([{ title: 'Database upgrade', active: true }]);

    // 10:05:00 and after: the window is over, the check still fails.
    await nextRun();
    await nextRun();
    expect((await check()).state).toBe('down');
    const [incident] = await incidents();
    expect(incident).toMatchObject({ status: 'open' });
    expect(await outbox()).toContainEqual({ event: 'incident.opened', incident_uid: incident.uid });
    const [opened] = await suite.receiver.waitFor('/hook', 1);
    expect(opened.json).toMatchObject({ event: 'incident.opened', check: { slug: 'shop' } });
    const changes = await daemon.request('GET', '/orgs/default/state-changes', { token: admin });
    expect(changes.body.items.map((c: { from: string; to: string }) => `${c.from}>${c.to}`).reverse()).toEqual([
      'pending>up',
      'up>maintenance',
      'maintenance>down',
    ]);
  });

  it('keeps an incident open through a window and resolves it when the check recovers after it', async () => {
    const [incident] = await incidents();
    const window = await daemon.request('POST', '/orgs/default/maintenance-windows', {
      token: admin,
      body: {
        title: 'Fix',
        startsAt: new Date(suite.clock.now().getTime() + 10_000).toISOString(),
        endsAt: new Date(suite.clock.now().getTime() + 70_000).toISOString(),
        checks: ['shop'],
      },
    });
    expect(window.status).toBe(201);
    await nextRun();
    expect((await check()).state).toBe('maintenance');
    expect(await incidents()).toEqual([{ uid: incident.uid, status: 'open' }]);
    suite.status = 200;
    await nextRun();
    expect((await check()).state).toBe('maintenance');
    await nextRun();
    await nextRun();
    expect((await check()).state).toBe('up');
    expect(await incidents()).toEqual([{ uid: incident.uid, status: 'resolved' }]);
    // One message per destination (the channel, the admin's e-mail): opened once, resolved once.
    expect([...new Set((await outbox()).map((row) => row.event))]).toEqual(['incident.opened', 'incident.resolved']);
    expect((await outbox()).filter((row) => row.event === 'incident.opened').length).toBe(
      (await outbox()).filter((row) => row.event === 'incident.resolved').length,
    );
  });
});
