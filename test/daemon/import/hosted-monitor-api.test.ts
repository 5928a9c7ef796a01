import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { checksSnapshot, convertPath } from './helpers.js';

const GOOD = 'hm_good_0123456789abcdef';
const REFUSED = 'hm_refused_0123456789abcdef';
const BUSY = 'hm_busy_0123456789abcdef';

const monitor = (id: string, attributes: Record<string, unknown>) => ({ id, type: 'monitor', attributes });
const page = (data: unknown[]) => JSON.stringify({ data, pagination: { first: null, last: null, prev: null, next: null } });

/** A local stand-in for the hosted monitoring API: one account behind GOOD, a refusal otherwise. */
async function startHostedApi(): Promise<{ url: string; server: Server; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    res.setHeader('content-type', 'application/json');
    if (req.headers.authorization === `Bearer ${BUSY}`) {
      res.writeHead(429, { 'retry-after': '30' });
      return res.end('{"errors":"Too many requests"}');
    }
    if (req.headers.authorization !== `Bearer ${GOOD}`) {
      res.statusCode = 401;
      return res.end('{"errors":"Invalid Team API token"}');
    }
    if (path === '/api/v2/monitors') {
      return res.end(
        page([
          monitor('1', {
            monitor_type: 'status',
            url: 'https://shop.example.com/',
            pronounceable_name: 'Shop',
            check_frequency: 180,
            request_timeout: 30,
            http_method: 'get',
          }),
          monitor('2', {
            monitor_type: 'keyword',
            url: 'https://shop.example.com/health',
            pronounceable_name: 'Shop health',
            required_keyword: 'OK',
            check_frequency: 60,
            auth_username: 'ops',
            auth_password: 'hunter2',
          }),
          monitor('3', { monitor_type: 'carrier_pigeon', url: 'https://shop.example.com/checkout', pronounceable_name: 'Checkout flow' }),
        ]),
      );
    }
    if (path === '/api/v2/heartbeats') return res.end(page([]));
    res.statusCode = 404;
    res.end('{"errors":"Not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seen };
}

/** An address where nothing listens: a port that was just free. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe.each(DATABASE_KINDS)('import from the hosted monitoring API [%s]', (kind) => {
  let api: Awaited<ReturnType<typeof startHostedApi>>;
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    api = await startHostedApi();
    daemon = await startTestDaemon(kind, { env: { SVC_IMPORT_HOSTED_MONITOR_API_URL: api.url } });
    admin = await daemon.adminToken();
  });
  afterAll(async () => {
    await daemon.stop();
    await new Promise<void>((resolve) => api.server.close(() => resolve()));
  });

  const convert = (query: string, raw: string) => daemon.request('POST', convertPath(query), { token: admin, raw });
  const tokenless = (value: unknown) => expect(JSON.stringify(value)).not.toMatch(/hm_(good|refused|busy)_/);

  it('fetches the monitors with the token, previews, then applies the same', async () => {
    const before = await checksSnapshot(daemon);
    const preview = await convert('source=betterstack&dryRun=true', `${GOOD}\n`);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ source: 'hosted-monitor-api', dryRun: true, created: 2, skipped: 1 });
    expect(preview.body.warnings.map((w: { code: string }) => w.code)).toEqual(expect.arrayContaining(['SECRET_DROPPED', 'UNSUPPORTED_TYPE']));
    expect(await checksSnapshot(daemon)).toBe(before);
    expect(api.seen.at(-1)?.authorization).toBe(`Bearer ${GOOD}`);

    const applied = await convert('source=hosted-monitor-api', GOOD);
    expect(applied.body).toMatchObject({ dryRun: false, created: 2, updated: 0, skipped: 1 });
    expect(applied.body.checks.map((c: { action: string }) => c.action)).toEqual(preview.body.checks.map((c: { action: string }) => c.action));
    const again = await convert('source=hosted-monitor-api', GOOD);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    const managed = await daemon.request('GET', '/orgs/default/checks?label=svc-managed=hosted-monitor-api', { token: admin });
    expect(managed.body.items).toHaveLength(2);
    tokenless([preview.body, applied.body, managed.body, await checksSnapshot(daemon)]);
  });

  it('answers 502 UPSTREAM_FAILED saying the token was refused, and writes nothing', async () => {
    const before = await checksSnapshot(daemon);
    for (const dryRun of ['true', 'false']) {
      const res = await convert(`source=hosted-monitor-api&dryRun=${dryRun}`, REFUSED);
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('UPSTREAM_FAILED');
      expect(res.body.error.message).toMatch(/refused the token/);
      expect(res.body.error.details).toMatchObject({ reason: 'token-refused', upstreamStatus: 401 });
      tokenless(res.body);
    }
    const busy = await convert('source=hosted-monitor-api', BUSY);
    expect(busy.status).toBe(502);
    expect(busy.body.error.details).toMatchObject({ reason: 'rate-limited', retryAfterSeconds: 30 });
    expect(busy.headers.get('retry-after')).toBe('30');
    expect(await checksSnapshot(daemon)).toBe(before);
  });

  it('refuses a body that cannot be a token with 400 INVALID_IMPORT_INPUT, without calling the API', async () => {
    const calls = api.seen.length;
    for (const raw of ['', '  \n', 'two words']) {
      const res = await convert('source=hosted-monitor-api', raw);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_IMPORT_INPUT');
      expect(res.body.error.message).toMatch(/expected an API token/);
      // The answer names both inputs the source takes, and how the CLI passes a token.
      expect(res.body.error.message).toMatch(/--token-env/);
      expect(res.body.error.message).toMatch(/monitors and heartbeats listings saved to a file/);
    }
    expect(api.seen.length).toBe(calls);
  });

  it('previews and applies the listings saved as JSON without calling the API', async () => {
    const calls = api.seen.length;
    const saved = JSON.stringify([
      JSON.parse(page([monitor('11', { monitor_type: 'status', url: 'https://blog.example.com/', pronounceable_name: 'Blog', check_frequency: 60 })])),
      JSON.parse(page([{ id: '21', type: 'heartbeat', attributes: { name: 'Nightly backup', period: 86400, grace: 3600 } }])),
    ]);
    const before = await checksSnapshot(daemon);
    const preview = await convert('source=hosted-monitor-api&dryRun=true', saved);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ dryRun: true, created: 2, skipped: 0 });
    expect(preview.body.checks.map((c: { slug: string; type: string }) => [c.slug, c.type])).toEqual([
      ['blog', 'http'],
      ['nightly-backup', 'heartbeat'],
    ]);
    expect(await checksSnapshot(daemon)).toBe(before);
    const applied = await convert('source=hosted-monitor-api', saved);
    expect(applied.body).toMatchObject({ dryRun: false, created: 2 });
    expect((await daemon.request('GET', '/orgs/default/checks/nightly-backup', { token: admin })).body.labels).toMatchObject({
      'svc-managed': 'hosted-monitor-api',
    });
    expect(api.seen.length, 'the saved listings need no network').toBe(calls);
  });

  it('answers 502 saying the API cannot be reached', async () => {
    const other = await startTestDaemon(kind, { env: { SVC_IMPORT_HOSTED_MONITOR_API_URL: await closedPortUrl() } });
    try {
      const token = await other.adminToken();
      const res = await other.request('POST', convertPath('source=hosted-monitor-api'), { token, raw: GOOD });
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('UPSTREAM_FAILED');
      expect(res.body.error.message).toMatch(/cannot be reached/);
      tokenless(res.body);
      tokenless(other.logs);
    } finally {
      await other.stop();
    }
  });

  it('never logs the token', () => {
    expect(daemon.logs.length).toBeGreaterThan(0);
    tokenless(daemon.logs);
  });
});
