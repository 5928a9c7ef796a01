import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import type { Runner } from '../../../daemon/runner/runner.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { addMember } from '../../support/members.js';
import { testRunner } from '../../support/runner.js';

describe.each(DATABASE_KINDS)('scheduled HTTP checks: thresholds, incidents, run now, test [%s]', (kind) => {
  const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
  let daemon: TestDaemon;
  let admin: string;
  let viewer: string;
  let runner: Runner;
  let server: Server;
  let url: string;
  let status = 200;

  const check = async () => (await daemon.request('GET', '/orgs/default/checks/shop', { token: admin })).body;
  const nextRun = async () => {
    clock.advance(30_000);
    await runner.tick();
  };

  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(status).end(status === 200 ? 'all good' : 'broken'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    daemon = await startTestDaemon(kind, { clock });
    admin = await daemon.adminToken();
    viewer = (await addMember(daemon, 'http-viewer@example.com', 'viewer')).token;
    runner = testRunner(daemon, clock);
    const created = await daemon.request('POST', '/orgs/default/checks', {
      token: admin,
      body: {
        name: 'Shop',
        type: 'http',
        intervalSeconds: 30,
        target: `${url}/health`,
        thresholds: { failuresBeforeDown: 2, successesBeforeUp: 2, timeoutMs: 2000 },
      },
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await daemon.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('goes up after successesBeforeUp, down after failuresBeforeDown with an incident, and back up resolving it', async () => {
    await nextRun();
    expect(await check()).toMatchObject({ state: 'pending', lastResult: { status: 'up', message: 'status 200' } });
    await nextRun();
    expect((await check()).state).toBe('up');

    status = 503;
    await nextRun();
    expect(await check()).toMatchObject({ state: 'up', lastResult: { status: 'down', message: 'expected status 200-299, got 503' } });
    await nextRun();
    expect((await check()).state).toBe('down');
    await nextRun();
    const open = await daemon.request('GET', '/orgs/default/incidents?status=open', { token: viewer });
    expect(open.body.items).toMatchObject([{ title: 'Shop is down', checkSlug: 'shop', openedBy: null }]);

    status = 200;
    await nextRun();
    expect((await check()).state).toBe('down');
    await nextRun();
    expect((await check()).state).toBe('up');
    const resolved = await daemon.request('GET', `/orgs/default/incidents/${open.body.items[0].uid}`, { token: viewer });
    expect(resolved.body).toMatchObject({ status: 'resolved', resolvedBySystem: true, resolvedBy: null });
    const results = await daemon.request('GET', '/orgs/default/checks/shop/results', { token: viewer });
    expect(results.body.items.map((r: { status: string }) => r.status)).toEqual(['up', 'up', 'down', 'down', 'down', 'up', 'up']);
  });

  it('runs a check now for a user (recorded), and refuses a viewer', async () => {
    expect((await daemon.request('POST', '/orgs/default/checks/shop/run', { token: viewer })).status).toBe(403);
    status = 500;
    clock.advance(1000);
    const run = await daemon.request('POST', '/orgs/default/checks/shop/run', { token: admin });
    status = 200;
    expect(run.status).toBe(200);
    expect(run.body).toEqual({ at: clock.now().toISOString(), status: 'down', latencyMs: expect.any(Number), message: 'expected status 200-299, got 500' });
    expect((await check()).lastResult).toEqual(run.body);
  });

  it('tests a candidate check without storing anything', async () => {
    const before = await daemon.deps.db.kysely.selectFrom('check_results').selectAll().execute();
    const tested = await daemon.request('POST', '/orgs/default/checks/test', { token: admin, body: { name: 'Candidate', type: 'http', target: `${url}/x` } });
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ status: 'up', message: 'status 200' });
    const invalid = await daemon.request('POST', '/orgs/default/checks/test', { token: admin, body: { name: 'Candidate', type: 'http' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('VALIDATION_FAILED');
    expect(await daemon.deps.db.kysely.selectFrom('check_results').selectAll().execute()).toEqual(before);
    expect((await daemon.request('GET', '/orgs/default/checks/candidate', { token: admin })).status).toBe(404);
  });
});

describe('the egress policy of the runner [sqlite]', () => {
  it('with SVC_RUNNER_DENY_PRIVATE, a loopback target is a down result saying so', async () => {
    const daemon = await startTestDaemon('sqlite', { env: { SVC_RUNNER_DENY_PRIVATE: 'true' } });
    try {
      const admin = await daemon.adminToken();
      const tested = await daemon.request('POST', '/orgs/default/checks/test', {
        token: admin,
        body: { name: 'Inside', type: 'http', target: 'http://127.0.0.1:9/' },
      });
      expect(tested.body).toMatchObject({ status: 'down', message: expect.stringContaining('egress policy refuses 127.0.0.1 (loopback or private address)') });
    } finally {
      await daemon.stop();
    }
  });
});
