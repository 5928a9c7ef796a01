import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

const THRESHOLDS = { timeoutMs: 5000, failuresBeforeDown: 1, successesBeforeUp: 1 };

describe.each(DATABASE_KINDS)('health at a glance: latencies, state counts, state changes [%s]', (kind) => {
  let daemon: TestDaemon;
  let server: Server;
  let admin: string;
  const run = async (slug: string) => expect((await daemon.request('POST', `/orgs/default/checks/${slug}/run`, { token: admin })).status).toBe(200);

  beforeAll(async () => {
    server = createServer((req, res) => res.writeHead(req.url === '/broken' ? 500 : 200).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
    const checks: Array<[string, string, boolean]> = [
      ['busy', '/ok', true],
      ['broken', '/broken', true],
      ['idle', '/ok', true],
      ['off', '/ok', false],
    ];
    for (const [slug, path, enabled] of checks) {
      const body = { slug, name: slug, type: 'http', target: `${url}${path}`, enabled, thresholds: THRESHOLDS };
      expect((await daemon.request('POST', '/orgs/default/checks', { token: admin, body })).status).toBe(201);
    }
    for (let i = 0; i < 23; i++) await run('busy');
    await run('broken');
  });
  afterAll(async () => {
    await daemon?.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('lists each check with the response times of its last 20 runs, oldest first', async () => {
    const listed = await daemon.request('GET', '/orgs/default/checks?include=latencies,uptime24h', { token: admin });
    expect(listed.status).toBe(200);
    const bySlug = Object.fromEntries(listed.body.items.map((c: { slug: string }) => [c.slug, c]));
    const results = await daemon.request('GET', '/orgs/default/checks/busy/results?limit=20', { token: admin });
    expect(bySlug.busy.recentLatencies).toEqual(results.body.items.map((r: { latencyMs: number }) => r.latencyMs).reverse());
    expect(bySlug.busy.recentLatencies).toHaveLength(20);
    expect(bySlug.broken.recentLatencies).toHaveLength(1);
    expect(bySlug.idle.recentLatencies).toEqual([]);
    expect(bySlug.busy.uptime24h).toBe(100);
    expect((await daemon.request('GET', '/orgs/default/checks', { token: admin })).body.items[0]).not.toHaveProperty('recentLatencies');
  });

  it('counts the checks per state as the list shows them', async () => {
    const res = await daemon.request('GET', '/orgs/default/check-states', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ total: 4, counts: { pending: 1, up: 1, degraded: 0, down: 1, paused: 1, maintenance: 0 } });
    for (const [state, count] of Object.entries(res.body.counts)) {
      const listed = await daemon.request('GET', `/orgs/default/checks?state=${state}`, { token: admin });
      expect(listed.body.items, state).toHaveLength(count as number);
    }
    expect((await daemon.request('GET', '/orgs/default/check-states?verbose=1', { token: admin })).status).toBe(400);
  });

  it('lists the state changes newest first, of the organization or of one check, in pages', async () => {
    const all = await daemon.request('GET', '/orgs/default/state-changes', { token: admin });
    expect(all.status).toBe(200);
    expect(all.body.items.map((c: { checkSlug: string; to: string }) => `${c.checkSlug}:${c.to}`)).toEqual(['broken:down', 'busy:up']);
    const down = all.body.items[0];
    expect(down).toMatchObject({ from: 'pending', to: 'down', checkSlug: 'broken' });
    expect(down.incidentUid).toEqual(expect.any(String));
    expect(down.message).toContain('500');

    const one = await daemon.request('GET', '/orgs/default/state-changes?check=busy', { token: admin });
    expect(one.body.items.map((c: { to: string }) => c.to)).toEqual(['up']);

    const first = await daemon.request('GET', '/orgs/default/state-changes?limit=1', { token: admin });
    expect(first.body.items).toHaveLength(1);
    const second = await daemon.request('GET', `/orgs/default/state-changes?limit=1&cursor=${first.body.nextCursor}`, { token: admin });
    expect(second.body.items.map((c: { checkSlug: string }) => c.checkSlug)).toEqual(['busy']);
    expect(second.body.nextCursor).toBeNull();

    expect((await daemon.request('GET', '/orgs/default/state-changes?check=nowhere', { token: admin })).status).toBe(404);
    const bad = await daemon.request('GET', '/orgs/default/state-changes?limit=0&sort=asc', { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
  });
});
