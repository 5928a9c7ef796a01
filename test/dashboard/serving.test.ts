import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardStatic, defaultDashboardDir } from '../../daemon/http/dashboard-static.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';

const built = existsSync(join(defaultDashboardDir(), 'index.html'));

describe('the daemon serves the dashboard', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon('sqlite');
  });
  afterAll(() => daemon?.stop());

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${daemon.url}${path}`, { headers, redirect: 'manual' });

  it('was built by the test command (npm test runs npm run build first)', () => {
    expect(built, `no ${defaultDashboardDir()}/index.html: run npm run build`).toBe(true);
  });

  it.skipIf(!built)('answers every non-API path with index.html, uncached, under a strict policy', async () => {
    for (const path of ['/', '/d/sign-in', '/d/auth/complete?code=abc', '/orgs/default/checks/-/import', '/orgs/x/server/hashing', '/no/such/page']) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      const html = await response.text();
      expect(html).toContain('<div id="app"></div>');
      // Nothing inline: every script is a file of this origin.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/\sstyle=/);
    }
  });

  it.skipIf(!built)('revalidates index.html by its ETag', async () => {
    const first = await get('/orgs/default/checks');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    // fetch() adds "Cache-Control: no-cache" (a forced reload) to conditional requests unless told otherwise.
    const again = await get('/orgs/default/checks', { 'if-none-match': etag!, 'cache-control': 'max-age=0' });
    expect(again.status).toBe(304);
  });

  it.skipIf(!built)('serves hashed assets with a long cache, and a missing asset as 404, never as HTML', async () => {
    const assets = readdirSync(join(defaultDashboardDir(), 'assets'));
    const script = assets.find((name) => name.endsWith('.js'))!;
    const response = await get(`/assets/${script}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const head = await fetch(`${daemon.url}/assets/${script}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);

    const missing = await get('/assets/index-00000000.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).not.toContain('html');
  });

  it.skipIf(!built)('never serves a file outside the built dashboard', async () => {
    for (const path of ['/../package.json', '/%2e%2e/package.json', '/..%2fpackage.json', '/assets/..%2f..%2f..%2fpackage.json']) {
      const response = await get(path);
      const text = await response.text();
      expect(text, path).not.toContain('"devDependencies"');
    }
  });

  it('leaves /api to the API: unknown API paths are JSON 404s', async () => {
    const response = await get('/api/v1/no-such-route');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect(response.headers.get('cache-control')).toBe('no-store');
    const health = await get('/api/v1/health');
    expect(health.status).toBe(200);
  });

  it('does not answer other methods on dashboard paths', async () => {
    const response = await fetch(`${daemon.url}/orgs/default/checks`, { method: 'POST' });
    expect(response.status).toBe(404);
  });
});

describe('without a built dashboard', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-no-dashboard-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves a short page saying so, not a crash', async () => {
    const app = new Koa();
    app.use(dashboardStatic({ dir }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    try {
      const { port } = server.address() as { port: number };
      for (const path of ['/', '/orgs/default/checks']) {
        const response = await fetch(`http://127.0.0.1:${port}${path}`);
        expect(response.status).toBe(503);
        expect(await response.text()).toContain('The dashboard is not built');
      }
    } finally {
      server.close();
    }
  });
});
