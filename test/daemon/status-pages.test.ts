import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { addMember } from '../support/members.js';

describe.each(DATABASE_KINDS)('status pages [%s]', (kind) => {
  let daemon: TestDaemon;
  let user: string;
  let viewer: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    const admin = await daemon.adminToken();
    user = (await addMember(daemon, 'pages-user@example.com', 'user')).token;
    viewer = (await addMember(daemon, 'pages-viewer@example.com', 'viewer')).token;
    for (const name of ['Web', 'API', 'Queue']) {
      const res = await daemon.request('POST', '/orgs/default/checks', {
        token: admin,
        body: { name, type: 'tcp', target: `${name.toLowerCase()}.example.com:443` },
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => daemon.stop());

  it('creates, reads, changes and deletes a page listing checks in order', async () => {
    const created = await daemon.request('POST', '/orgs/default/status-pages', {
      token: user,
      body: { title: 'Public Status', description: 'All systems', public: true, checks: ['api', 'web'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug: 'public-status', title: 'Public Status', description: 'All systems', public: true, checks: ['api', 'web'] });

    const dup = await daemon.request('POST', '/orgs/default/status-pages', { token: user, body: { title: 'Other', slug: 'public-status' } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.details.reason).toBe('SLUG_TAKEN');

    const changed = await daemon.request('PATCH', '/orgs/default/status-pages/public-status', {
      token: user,
      body: { slug: 'status', checks: ['queue', 'api'], description: null, public: false },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ slug: 'status', title: 'Public Status', description: null, public: false, checks: ['queue', 'api'] });
    expect((await daemon.request('GET', '/orgs/default/status-pages/public-status', { token: viewer })).status).toBe(404);
    expect((await daemon.request('GET', '/orgs/default/status-pages/status', { token: viewer })).body).toEqual(changed.body);

    // A renamed check stays on the page; a deleted one leaves it.
    await daemon.request('PATCH', '/orgs/default/checks/queue', { token: user, body: { slug: 'jobs' } });
    await daemon.request('DELETE', '/orgs/default/checks/api', { token: user });
    expect((await daemon.request('GET', '/orgs/default/status-pages/status', { token: viewer })).body.checks).toEqual(['jobs']);

    const list = await daemon.request('GET', '/orgs/default/status-pages', { token: viewer });
    expect(list.body).toMatchObject({ items: [{ slug: 'status' }], nextCursor: null });

    expect((await daemon.request('DELETE', '/orgs/default/status-pages/status', { token: user })).status).toBe(204);
    expect((await daemon.request('DELETE', '/orgs/default/status-pages/status', { token: user })).status).toBe(404);
  });

  it('names each unknown check and each invalid field', async () => {
    const res = await daemon.request('POST', '/orgs/default/status-pages', { token: user, body: { title: 'Bad', checks: ['web', 'ghost', 'phantom'] } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.issues.map((i: { path: string }) => i.path)).toEqual(['checks.1', 'checks.2']);
    const shape = await daemon.request('POST', '/orgs/default/status-pages', {
      token: user,
      body: { slug: 'Not A Slug', public: 'yes', checks: ['web', 'web'] },
    });
    expect(shape.status).toBe(400);
    expect(shape.body.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(['checks', 'public', 'slug', 'title']);
    const empty = await daemon.request('PATCH', '/orgs/default/status-pages/nothing', { token: user, body: {} });
    expect(empty.status).toBe(400);
  });

  it('lets a viewer read but never write (403 FORBIDDEN)', async () => {
    await daemon.request('POST', '/orgs/default/status-pages', { token: user, body: { title: 'Internal' } });
    for (const [method, path, body] of [
      ['POST', '/orgs/default/status-pages', { title: 'By a viewer' }],
      ['PATCH', '/orgs/default/status-pages/internal', { title: 'Renamed' }],
      ['DELETE', '/orgs/default/status-pages/internal', undefined],
    ] as const) {
      const res = await daemon.request(method, path, { token: viewer, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    expect((await daemon.request('GET', '/orgs/default/status-pages/internal', { token: viewer })).status).toBe(200);
  });
});
