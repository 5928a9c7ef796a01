import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import type { Runner } from '../../../daemon/runner/runner.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { addMember } from '../../support/members.js';
import { testRunner, tokenOf } from '../../support/runner.js';

describe.each(DATABASE_KINDS)('heartbeat checks, state thresholds and incidents [%s]', (kind) => {
  const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
  let daemon: TestDaemon;
  let admin: string;
  let viewer: string;
  let runner: Runner;
  let token: string;

  const check = async () => (await daemon.request('GET', '/orgs/default/checks/nightly', { token: viewer })).body;
  const ping = (path: string, method = 'GET') => daemon.request(method, `/ping/${path}`);

  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { clock, env: { SVC_BASE_URL: 'https://svc.example.com' } });
    admin = await daemon.adminToken();
    viewer = (await addMember(daemon, 'hb-viewer@example.com', 'viewer')).token;
    runner = testRunner(daemon, clock);
    const created = await daemon.request('POST', '/orgs/default/checks', {
      token: admin,
      body: {
        name: 'Nightly',
        type: 'heartbeat',
        intervalSeconds: 10,
        config: { periodSeconds: 60, graceSeconds: 30 },
        thresholds: { failuresBeforeDown: 2, successesBeforeUp: 1 },
      },
    });
    expect(created.status).toBe(201);
  });
  afterAll(() => daemon.stop());

  it('shows a new check as pending, with a ping URL to members who may change checks (not to viewers)', async () => {
    const body = await check();
    expect(body).toMatchObject({ slug: 'nightly', state: 'pending', lastResult: null });
    expect(body).not.toHaveProperty('pingUrl');
    expect(JSON.stringify((await daemon.request('GET', '/orgs/default/checks', { token: viewer })).body)).not.toContain('/ping/');
    const full = (await daemon.request('GET', '/orgs/default/checks/nightly', { token: admin })).body;
    expect(full.pingUrl).toMatch(/^https:\/\/svc\.example\.com\/api\/v1\/ping\/[A-Za-z0-9_-]{22}$/);
    token = tokenOf(full.pingUrl);
    // Nothing is late yet: a run records nothing.
    clock.advance(30_000);
    await runner.tick();
    expect((await check()).state).toBe('pending');
  });

  it('records a ping on time as up', async () => {
    const answer = await ping(token);
    expect(answer.status).toBe(200);
    const body = await check();
    expect(body).toMatchObject({
      state: 'up',
      stateSince: clock.now().toISOString(),
      lastResult: { at: clock.now().toISOString(), status: 'up', latencyMs: 0, message: 'ok' },
    });
    // HEAD and POST ping too.
    clock.advance(1000);
    expect((await ping(token, 'HEAD')).status).toBe(200);
    clock.advance(1000);
    expect((await ping(token, 'POST')).status).toBe(200);
    const results = await daemon.request('GET', '/orgs/default/checks/nightly/results', { token: viewer });
    expect(results.body.items).toHaveLength(3);
  });

  it('records a late heartbeat as down after failuresBeforeDown runs, and opens one incident', async () => {
    clock.advance(91_000);
    await runner.tick();
    let body = await check();
    expect(body.state).toBe('up');
    expect(body.lastResult).toMatchObject({ status: 'down', message: 'no ping for 91 s (period 60 s + grace 30 s)' });
    clock.advance(10_000);
    await runner.tick();
    body = await check();
    expect(body).toMatchObject({ state: 'down', stateSince: clock.now().toISOString() });
    clock.advance(10_000);
    await runner.tick();
    const incidents = await daemon.request('GET', '/orgs/default/incidents?status=open', { token: viewer });
    expect(incidents.body.items).toHaveLength(1);
    expect(incidents.body.items[0]).toMatchObject({ title: 'Nightly is down', checkSlug: 'nightly', openedBy: null, resolvedBySystem: false });
    const listed = await daemon.request('GET', '/orgs/default/checks?state=down', { token: viewer });
    expect(listed.body.items.map((c: { slug: string }) => c.slug)).toEqual(['nightly']);
    expect((await daemon.request('GET', '/orgs/default/checks?state=up', { token: viewer })).body.items).toEqual([]);
  });

  it('resolves the incident by the system when the check comes back up', async () => {
    clock.advance(5_000);
    expect((await ping(token)).status).toBe(200);
    expect((await check()).state).toBe('up');
    const incidents = await daemon.request('GET', '/orgs/default/incidents', { token: viewer });
    expect(incidents.body.items).toHaveLength(1);
    expect(incidents.body.items[0]).toMatchObject({ status: 'resolved', resolvedAt: clock.now().toISOString(), resolvedBy: null, resolvedBySystem: true });
    const changes = await daemon.deps.db.kysely.selectFrom('check_state_changes').select(['from_state', 'to_state', 'incident_uid']).orderBy('uid').execute();
    expect(changes.map((c) => `${c.from_state}>${c.to_state}`)).toEqual(['pending>up', 'up>down', 'down>up']);
    expect(changes[1].incident_uid).toBe(incidents.body.items[0].uid);
    expect(changes[2].incident_uid).toBe(incidents.body.items[0].uid);
  });

  it('records /fail as down, counting towards the threshold', async () => {
    clock.advance(1000);
    expect((await ping(`${token}/fail`)).status).toBe(200);
    expect(await check()).toMatchObject({ state: 'up', lastResult: { status: 'down', message: 'the job reported a failure' } });
    clock.advance(1000);
    expect((await ping(`${token}/fail`, 'POST')).status).toBe(200);
    expect((await check()).state).toBe('down');
    clock.advance(1000);
    await ping(token);
    expect((await check()).state).toBe('up');
    const open = await daemon.request('GET', '/orgs/default/incidents?status=open', { token: viewer });
    expect(open.body.items).toEqual([]);
  });

  it('answers results newest first with a cursor, and uptime from the hourly aggregates', async () => {
    const first = await daemon.request('GET', '/orgs/default/checks/nightly/results?limit=2', { token: viewer });
    expect(first.status).toBe(200);
    expect(first.body.items.map((r: { status: string }) => r.status)).toEqual(['up', 'down']);
    const second = await daemon.request('GET', `/orgs/default/checks/nightly/results?limit=100&cursor=${first.body.nextCursor}`, { token: viewer });
    const all = [...first.body.items, ...second.body.items];
    expect(second.body.nextCursor).toBeNull();
    expect(all).toHaveLength(10);
    const times = all.map((r: { at: string }) => Date.parse(r.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const from = new Date(Date.parse(all[2].at)).toISOString();
    const ranged = await daemon.request('GET', `/orgs/default/checks/nightly/results?from=${from}`, { token: viewer });
    expect(ranged.body.items).toHaveLength(3);

    const uptime = await daemon.request('GET', '/orgs/default/checks/nightly/uptime?window=24h&bucket=hour', { token: viewer });
    expect(uptime.status).toBe(200);
    expect(uptime.body).toMatchObject({ window: '24h', runs: 10, downRuns: 5, uptimePercent: 50, latencyP50Ms: expect.any(Number) });
    expect(uptime.body.buckets).toEqual([{ start: '2026-03-01T10:00:00.000Z', uptimePercent: 50, runs: 10 }]);
    const bad = await daemon.request('GET', '/orgs/default/checks/nightly/uptime?window=1y', { token: viewer });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('rotates the ping token: the old URL stops working; unknown tokens are 404, then rate-limited', async () => {
    expect((await daemon.request('POST', '/orgs/default/checks/nightly/ping-token', { token: viewer })).status).toBe(403);
    const rotated = await daemon.request('POST', '/orgs/default/checks/nightly/ping-token', { token: admin });
    expect(rotated.status).toBe(200);
    const fresh = tokenOf(rotated.body.pingUrl);
    expect(fresh).not.toBe(token);
    expect((await ping(token)).status).toBe(404);
    clock.advance(1000);
    expect((await ping(fresh)).status).toBe(200);
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await ping(`unknown-token-${i}`)).status;
    expect(last).toBe(429);
    // A rate-limited client is refused even with a good token until the window ends.
    expect((await ping(fresh)).status).toBe(429);
    clock.advance(61_000);
    expect((await ping(fresh)).status).toBe(200);
  });

  it('pauses a disabled check at its next run, and forgets a deleted one', async () => {
    expect((await daemon.request('PATCH', '/orgs/default/checks/nightly', { token: admin, body: { enabled: false } })).status).toBe(200);
    expect((await check()).state).toBe('paused');
    clock.advance(10_000);
    await runner.tick();
    const stored = await daemon.deps.db.kysely.selectFrom('check_states').select('state').executeTakeFirstOrThrow();
    expect(stored.state).toBe('paused');
    expect((await daemon.request('GET', '/orgs/default/checks?state=paused', { token: viewer })).body.items).toHaveLength(1);
    expect((await daemon.request('DELETE', '/orgs/default/checks/nightly', { token: admin })).status).toBe(204);
    clock.advance(10_000);
    await runner.tick();
    expect(await daemon.deps.db.kysely.selectFrom('check_states').selectAll().execute()).toEqual([]);
  });

  it('records at most one ping a second per check: more answer 429 and are not recorded', async () => {
    const created = await daemon.request('POST', '/orgs/default/checks', {
      token: admin,
      body: { name: 'Pulse', type: 'heartbeat', intervalSeconds: 10, config: { periodSeconds: 60, graceSeconds: 30 } },
    });
    expect(created.status).toBe(201);
    const pulse = tokenOf((await daemon.request('GET', '/orgs/default/checks/pulse', { token: admin })).body.pingUrl);
    const count = async () => (await daemon.request('GET', '/orgs/default/checks/pulse/results?limit=200', { token: viewer })).body.items.length;
    clock.advance(61_000);
    expect((await ping(pulse)).status).toBe(200);
    for (const path of [pulse, `${pulse}/fail`]) {
      const flood = await ping(path, 'POST');
      expect(flood.status).toBe(429);
      expect(flood.body.error.code).toBe('RATE_LIMITED');
      expect(flood.headers.get('retry-after')).toBe('1');
    }
    expect(await count()).toBe(1);
    expect((await daemon.request('GET', '/orgs/default/checks/pulse', { token: viewer })).body.lastResult.status).toBe('up');
    clock.advance(1000);
    expect((await ping(pulse)).status).toBe(200);
    expect(await count()).toBe(2);
  });

  // Uptime Kuma 2.5.3 server/routers/api-router.js (determineStatus flips a push in upside-down
  // mode) and server/model/monitor.js (a push monitor's "No heartbeat in the time window" counts
  // as up there): a job that must not run.
  it('turns an upside-down heartbeat over: a ping is down, a failure up, and a missed deadline up', async () => {
    const created = await daemon.request('POST', '/orgs/default/checks', {
      token: admin,
      body: { name: 'Forbidden', type: 'heartbeat', intervalSeconds: 10, config: { periodSeconds: 60, graceSeconds: 30, invert: true } },
    });
    expect(created.status).toBe(201);
    const forbidden = tokenOf((await daemon.request('GET', '/orgs/default/checks/forbidden', { token: admin })).body.pingUrl);
    const lastResult = async () => (await daemon.request('GET', '/orgs/default/checks/forbidden', { token: viewer })).body.lastResult;
    clock.advance(1000);
    expect((await ping(forbidden)).status).toBe(200);
    expect(await lastResult()).toMatchObject({ status: 'down', message: 'upside-down: ok' });
    clock.advance(1000);
    expect((await ping(`${forbidden}/fail`)).status).toBe(200);
    expect(await lastResult()).toMatchObject({ status: 'up', message: 'upside-down: the job reported a failure (counts as up)' });
    clock.advance(91_000);
    await runner.tick();
    expect(await lastResult()).toMatchObject({ status: 'up', message: 'upside-down: no ping for 91 s (period 60 s + grace 30 s) (counts as up)' });
  });
});
