import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTypeNames } from '../../checks/index.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { addMember, setRole } from '../support/members.js';

const httpCheck = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: 'http',
  target: 'https://example.com/health',
  ...extra,
});

describe.each(DATABASE_KINDS)('checks API [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
  });
  afterAll(() => daemon.stop());

  it('lists the check types with their config JSON Schema, and a valid sample of each', async () => {
    const types = await daemon.request('GET', '/check-types', { token: admin });
    expect(types.status).toBe(200);
    expect(types.body.map((t: { type: string }) => t.type)).toEqual([...checkTypeNames]);
    const http = types.body.find((t: { type: string }) => t.type === 'http');
    expect(http).toMatchObject({ title: expect.any(String), description: expect.any(String), schema: { type: 'object' }, runnable: true });
    // Every type has an executor; one that needs a host program this machine lacks says which.
    for (const type of types.body as Array<{ type: string; runnable: boolean; reason?: string }>) {
      if (!type.runnable) expect(type.reason, type.type).toMatch(/is not installed/);
    }

    for (const type of checkTypeNames) {
      const sample = await daemon.request('GET', `/check-types/${type}/sample`, { token: admin });
      expect(sample.status).toBe(200);
      expect(sample.body.type).toBe(type);
      const valid = await daemon.request('POST', '/orgs/default/checks/validate', { token: admin, body: sample.body });
      expect(valid.status, `${type}: ${JSON.stringify(valid.body)}`).toBe(200);
      expect(valid.body).toEqual({ valid: true, check: sample.body, missingSecrets: [] });
    }
    const unknown = await daemon.request('GET', '/check-types/gopher/sample', { token: admin });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    expect((await daemon.request('GET', '/check-types')).status).toBe(401);
  });

  it('validates without writing, listing every problem with its path', async () => {
    const res = await daemon.request('POST', '/orgs/default/checks/validate', {
      token: admin,
      body: { name: '', type: 'http', target: 'not a url', intervalSeconds: 5, config: { method: 'FETCH' }, colour: 'red' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    const paths = res.body.error.details.issues.map((i: { path: string }) => i.path).sort();
    expect(paths).toEqual(['colour', 'config.method', 'intervalSeconds', 'name', 'target']);
    const normalised = await daemon.request('POST', '/orgs/default/checks/validate', { token: admin, body: httpCheck('Validate Me') });
    expect(normalised.body.check).toMatchObject({ slug: 'validate-me', enabled: true, intervalSeconds: 60, labels: {} });
    expect((await daemon.request('GET', '/orgs/default/checks/validate-me', { token: admin })).status).toBe(404);
  });

  it('creates, reads, patches and deletes a check; a taken slug is 409 SLUG_TAKEN', async () => {
    const created = await daemon.request('POST', '/orgs/default/checks', {
      token: admin,
      body: httpCheck('Shop Front', { labels: { team: 'web', env: 'prod' }, description: 'the shop' }),
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      slug: 'shop-front',
      name: 'Shop Front',
      type: 'http',
      enabled: true,
      target: 'https://example.com/health',
      labels: { team: 'web', env: 'prod' },
      thresholds: { timeoutMs: 10000, failuresBeforeDown: 2, successesBeforeUp: 1 },
      description: 'the shop',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(created.body).not.toHaveProperty('uid');

    const again = await daemon.request('POST', '/orgs/default/checks', { token: admin, body: httpCheck('Shop front') });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'SLUG_TAKEN' } });

    const read = await daemon.request('GET', '/orgs/default/checks/shop-front', { token: admin });
    expect(read.body).toEqual(created.body);

    const patched = await daemon.request('PATCH', '/orgs/default/checks/shop-front', {
      token: admin,
      body: { intervalSeconds: 300, labels: { env: null, tier: 'gold' }, description: null, config: { keyword: { value: 'Welcome' } } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ intervalSeconds: 300, labels: { team: 'web', tier: 'gold' }, config: { keyword: { value: 'Welcome' } } });
    expect(patched.body).not.toHaveProperty('description');
    expect(patched.body.createdAt).toBe(created.body.createdAt);

    const invalid = await daemon.request('PATCH', '/orgs/default/checks/shop-front', { token: admin, body: { intervalSeconds: 1, type: 'nope' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(['intervalSeconds', 'type']);

    await daemon.request('POST', '/orgs/default/checks', { token: admin, body: httpCheck('Other') });
    const clash = await daemon.request('PATCH', '/orgs/default/checks/other', { token: admin, body: { slug: 'shop-front' } });
    expect(clash.status).toBe(409);
    expect(clash.body.error.details.reason).toBe('SLUG_TAKEN');
    const renamed = await daemon.request('PATCH', '/orgs/default/checks/other', { token: admin, body: { slug: 'other-renamed' } });
    expect(renamed.body.slug).toBe('other-renamed');
    expect((await daemon.request('GET', '/orgs/default/checks/other', { token: admin })).status).toBe(404);

    const byLabel = await daemon.request('GET', '/orgs/default/checks?label=tier=gold', { token: admin });
    expect(byLabel.body.items.map((c: { slug: string }) => c.slug)).toEqual(['shop-front']);
    expect((await daemon.request('GET', '/orgs/default/checks?label=env=prod', { token: admin })).body.items).toEqual([]);

    expect((await daemon.request('DELETE', '/orgs/default/checks/shop-front', { token: admin })).status).toBe(204);
    expect((await daemon.request('GET', '/orgs/default/checks/shop-front', { token: admin })).status).toBe(404);
    expect((await daemon.request('DELETE', '/orgs/default/checks/shop-front', { token: admin })).status).toBe(404);
    expect((await daemon.request('GET', '/orgs/default/checks?label=tier=gold', { token: admin })).body.items).toEqual([]);
    await daemon.request('DELETE', '/orgs/default/checks/other-renamed', { token: admin });
  });

  it('filters by every label given and by type, and pages with a cursor', async () => {
    const plan = Array.from({ length: 25 }, (_, i) => ({
      name: `Fleet ${String(i).padStart(2, '0')}`,
      type: i % 5 === 0 ? 'tcp' : 'http',
      target: i % 5 === 0 ? 'db.example.com:5432' : `https://example.com/${i}`,
      labels: { fleet: 'yes', parity: i % 2 === 0 ? 'even' : 'odd' },
    }));
    for (const check of plan) {
      const res = await daemon.request('POST', '/orgs/default/checks', { token: admin, body: check });
      expect(res.status).toBe(201);
    }
    const slugs: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: { items: { slug: string }[]; nextCursor: string | null } } = await daemon.request(
        'GET',
        `/orgs/default/checks?label=fleet=yes&limit=10${cursor ? `&cursor=${cursor}` : ''}`,
        { token: admin },
      );
      expect(res.status).toBe(200);
      slugs.push(...res.body.items.map((c) => c.slug));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(slugs).size).toBe(25);
    expect([...slugs].sort()).toEqual(plan.map((c) => c.name.toLowerCase().replace(' ', '-')).sort());

    const evenTcp = await daemon.request('GET', '/orgs/default/checks?label=fleet=yes&label=parity=even&type=tcp', { token: admin });
    expect(evenTcp.body.items.map((c: { slug: string }) => c.slug).sort()).toEqual(['fleet-00', 'fleet-10', 'fleet-20']);
    const tcp = await daemon.request('GET', '/orgs/default/checks?type=tcp&limit=2', { token: admin });
    expect(tcp.body.items).toHaveLength(2);
    expect(tcp.body.nextCursor).toEqual(expect.any(String));

    const bad = await daemon.request('GET', '/orgs/default/checks?label=novalue&type=gopher&limit=0&labels=x', { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(['label', 'labels', 'limit', 'type']);
  });

  it('lists what needs attention first with ?order=attention, by slug with ?order=name, and pages both with a cursor', async () => {
    // name -> state the runner last judged (paused: the check is disabled; pending: never judged).
    const plan: Record<string, 'up' | 'down' | 'degraded' | 'pending' | 'paused'> = {
      'Order A': 'up',
      'Order B': 'down',
      'Order C': 'paused',
      'Order D': 'degraded',
      'Order E': 'pending',
      'Order F': 'down',
      'Order G': 'up',
    };
    for (const [name, state] of Object.entries(plan)) {
      const res = await daemon.request('POST', '/orgs/default/checks', {
        token: admin,
        body: httpCheck(name, { labels: { ordered: 'yes' }, enabled: state !== 'paused' }),
      });
      expect(res.status).toBe(201);
      if (state !== 'paused' && state !== 'pending') {
        // Reading the check gives it its state row, which the runner would then update.
        expect((await daemon.request('GET', `/orgs/default/checks/${res.body.slug}`, { token: admin })).status).toBe(200);
        const db = daemon.deps.db.kysely;
        const { uid } = await db.selectFrom('checks').select('uid').where('slug', '=', res.body.slug).executeTakeFirstOrThrow();
        await db.updateTable('check_states').set({ state }).where('check_uid', '=', uid).execute();
      }
    }
    const walk = async (path: string) => {
      const slugs: string[] = [];
      let cursor: string | null = null;
      do {
        const res: { status: number; body: { items: { slug: string; state: string }[]; nextCursor: string | null } } = await daemon.request(
          'GET',
          `${path}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          { token: admin },
        );
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        slugs.push(...res.body.items.map((c) => `${c.slug}:${c.state}`));
        cursor = res.body.nextCursor;
      } while (cursor);
      return slugs;
    };
    const attention = ['order-b:down', 'order-f:down', 'order-d:degraded', 'order-e:pending', 'order-a:up', 'order-g:up', 'order-c:paused'];
    expect(await walk('/orgs/default/checks?label=ordered=yes&order=attention')).toEqual(attention);
    const all = await walk('/orgs/default/checks?order=attention');
    expect(all.filter((s) => s.startsWith('order-'))).toEqual(attention);
    expect(await walk('/orgs/default/checks?label=ordered=yes&order=name')).toEqual(
      Object.keys(plan).map((n) => `${n.toLowerCase().replace(' ', '-')}:${plan[n]}`),
    );
    expect(await walk('/orgs/default/checks?label=ordered=yes&order=attention&state=down')).toEqual(['order-b:down', 'order-f:down']);

    const bad = await daemon.request('GET', '/orgs/default/checks?order=loudest&cursor=x', { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(['cursor', 'order']);
    const badCursor = await daemon.request('GET', '/orgs/default/checks?order=name&cursor=bm90LWpzb24', { token: admin });
    expect(badCursor.status).toBe(400);
  });

  it('applies the member roles: a user writes, a viewer reads, a demoted member loses writes at once, a stranger sees nothing', async () => {
    const user = await addMember(daemon, 'checks-user@example.com', 'user');
    const viewer = await addMember(daemon, 'checks-viewer@example.com', 'viewer');
    const stranger = await daemon.register('checks-stranger@example.com');

    const created = await daemon.request('POST', '/orgs/default/checks', { token: user.token, body: httpCheck('By User') });
    expect(created.status).toBe(201);
    expect((await daemon.request('GET', '/orgs/default/checks/by-user', { token: viewer.token })).status).toBe(200);
    expect((await daemon.request('GET', '/orgs/default/checks', { token: viewer.token })).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/orgs/default/checks', httpCheck('By Viewer')],
      ['POST', '/orgs/default/checks/validate', httpCheck('By Viewer')],
      ['PATCH', '/orgs/default/checks/by-user', { name: 'Renamed' }],
      ['DELETE', '/orgs/default/checks/by-user', undefined],
    ] as const) {
      const res = await daemon.request(method, path, { token: viewer.token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }

    await setRole(daemon, user.uid, 'viewer');
    const demoted = await daemon.request('PATCH', '/orgs/default/checks/by-user', { token: user.token, body: { name: 'Renamed' } });
    expect(demoted.status).toBe(403);
    expect(demoted.body.error.code).toBe('FORBIDDEN');

    const hidden = await daemon.request('GET', '/orgs/default/checks', { token: stranger.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('NOT_FOUND');
  });
});
