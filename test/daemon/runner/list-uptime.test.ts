import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

describe.each(DATABASE_KINDS)('check list ?include=uptime24h [%s]', (kind) => {
  let daemon: TestDaemon;
  let server: Server;
  let admin: string;

  beforeAll(async () => {
    server = createServer((req, res) => res.writeHead(req.url === '/broken' ? 500 : 200).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
    for (const [slug, path] of [
      ['fine', '/ok'],
      ['broken', '/broken'],
      ['idle', '/ok'],
    ]) {
      const created = await daemon.request('POST', '/orgs/default/checks', { token: admin, body: { slug, name: slug, type: 'http', target: `${url}${path}` } });
      expect(created.status).toBe(201);
    }
    for (const slug of ['fine', 'fine', 'broken', 'fine'])
      expect((await daemon.request('POST', `/orgs/default/checks/${slug}/run`, { token: admin })).status).toBe(200);
  });
  afterAll(async () => {
    await daemon?.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('adds each listed check its 24-hour uptime, null when it never ran', async () => {
    const listed = await daemon.request('GET', '/orgs/default/checks?include=uptime24h', { token: admin });
    expect(listed.status).toBe(200);
    const bySlug = Object.fromEntries(listed.body.items.map((c: { slug: string; uptime24h: unknown }) => [c.slug, c.uptime24h]));
    expect(bySlug).toEqual({ fine: 100, broken: 0, idle: null });
  });

  it('leaves it out unless asked, and refuses an unknown include', async () => {
    const plain = await daemon.request('GET', '/orgs/default/checks', { token: admin });
    expect(plain.body.items[0]).not.toHaveProperty('uptime24h');
    const bad = await daemon.request('GET', '/orgs/default/checks?include=everything', { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues).toEqual([{ path: 'include', message: 'must be one of uptime24h, latencies' }]);
  });
});
