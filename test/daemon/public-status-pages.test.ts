import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../daemon/clock.js';
import { BUCKET_COLUMNS } from '../../daemon/runner/latency-histogram.js';
import { browserSkipReason, docScreenshotsDir, fitsWidth, launchBrowser, type TestBrowser } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { addMember } from '../support/members.js';

const NOW = new Date('2026-03-20T12:00:00Z');
const DAY_MS = 86_400_000;

/** Words that only the checks' targets, labels and descriptions contain: none may reach a public answer. */
const PRIVATE_WORDS = ['127.0.0.1', 'hidden-path', 'hidden-label', 'hidden-team', 'hidden-description', 'Internal Billing'];

function expectNothingPrivate(bytes: string) {
  for (const word of PRIVATE_WORDS) expect(bytes, `leaks ${word}`).not.toContain(word);
}

describe.each(DATABASE_KINDS)('public status pages, feeds and badges [%s]', (kind) => {
  const clock = manualClock(NOW);
  let daemon: TestDaemon;
  let admin: string;
  let viewer: string;
  let server: Server;
  let base: string;

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${daemon.url}${path}`, { headers });

  beforeAll(async () => {
    // One local server: /ok answers at once, /slow after 3 s (degraded above 1.5 s, far from /ok on a busy machine), /broken 500.
    server = createServer((req, res) => {
      if (req.url?.endsWith('/slow')) setTimeout(() => res.writeHead(200).end('slow'), 3000);
      else res.writeHead(req.url?.endsWith('/broken') ? 500 : 200).end('answer');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hidden-path`;
    daemon = await startTestDaemon(kind, { clock });
    admin = await daemon.adminToken();
    viewer = (await addMember(daemon, 'status-viewer@example.com', 'viewer')).token;
    const thresholds = { failuresBeforeDown: 1, successesBeforeUp: 1, timeoutMs: 8000, degradedResponseMs: 1500 };
    for (const [name, path] of [
      ['Website', 'ok'],
      ['Search', 'slow'],
      ['Payments', 'broken'],
      ['Internal Billing', 'ok'],
    ]) {
      const created = await daemon.request('POST', '/orgs/default/checks', {
        token: admin,
        body: { name, type: 'http', target: `${base}/${path}`, thresholds, labels: { 'hidden-team': 'hidden-label' }, description: 'hidden-description' },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const run = await daemon.request('POST', `/orgs/default/checks/${created.body.slug}/run`, { token: admin });
      expect(run.status).toBe(200);
    }
    // Some history before today, written as the result writer would aggregate it.
    const series = await daemon.deps.db.kysely
      .selectFrom('check_states as s')
      .innerJoin('checks as c', 'c.uid', 's.check_uid')
      .select(['c.slug', 's.series'])
      .execute();
    const today = Math.floor(NOW.getTime() / DAY_MS);
    const histogram = Object.fromEntries(BUCKET_COLUMNS.map((column) => [column, 0])) as Record<(typeof BUCKET_COLUMNS)[number], number>;
    const rows = series.flatMap(({ slug, series }) =>
      Array.from({ length: 30 }, (_, i) => ({
        series: Number(series),
        day: today - 30 + i,
        runs: 1440,
        down_runs: slug === 'search' && i === 20 ? 144 : 0,
        degraded_runs: 0,
        ...histogram,
      })),
    );
    await daemon.deps.db.kysely.insertInto('check_daily').values(rows).execute();

    for (const page of [
      { slug: 'status', title: 'Example status', description: 'Our public services.', public: true, checks: ['website', 'search', 'payments'] },
      { slug: 'internal', title: 'Internal', public: false, checks: ['internal-billing'] },
    ]) {
      expect((await daemon.request('POST', '/orgs/default/status-pages', { token: admin, body: page })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await daemon?.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('answers the page as JSON: overall state, each check with 90 days, the open incident; nothing private', async () => {
    const res = await get('/api/v1/public/status/default/status');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=30');
    const bytes = await res.text();
    expectNothingPrivate(bytes);
    const body = JSON.parse(bytes);
    expect(Object.keys(body).sort()).toEqual(['checks', 'description', 'incidents', 'maintenance', 'state', 'title', 'updates']);
    expect(body).toMatchObject({ title: 'Example status', description: 'Our public services.', state: 'partial outage' });
    expect(body.checks.map((c: { name: string; state: string }) => [c.name, c.state])).toEqual([
      ['Website', 'up'],
      ['Search', 'degraded'],
      ['Payments', 'down'],
    ]);
    for (const check of body.checks) {
      expect(Object.keys(check).sort()).toEqual(['days', 'name', 'state', 'updateState', 'uptime90d']);
      expect(check.days).toHaveLength(90);
      expect(check.days.at(-1)).toEqual({ date: '2026-03-20', uptimePercent: check.name === 'Payments' ? 0 : 100 });
      expect(check.days[0]).toEqual({ date: '2025-12-21', uptimePercent: null });
    }
    expect(body.checks[1].days.find((d: { date: string }) => d.date === '2026-03-10')).toEqual({ date: '2026-03-10', uptimePercent: 90 });
    expect(body.incidents).toEqual([
      { uid: expect.stringMatching(/^[0-9a-z]{26}$/), title: 'Payments is down', status: 'open', openedAt: NOW.toISOString(), resolvedAt: null },
    ]);
  });

  it('renders the page as HTML with states in words, no script, and its own CSP; nothing private', async () => {
    const res = await get('/status/default/status');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=30');
    expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-/);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    const html = await res.text();
    expectNothingPrivate(html);
    expect(html).not.toMatch(/<script/i);
    for (const text of [
      '<h1>Example status</h1>',
      'Partial outage',
      '>Website<',
      '>Operational<',
      '>Degraded performance<',
      '>Down<',
      'Payments is down',
      'title="2026-03-10: 90.00 % uptime"',
    ]) {
      expect(html).toContain(text);
    }
    // Uptime with two decimals and dates in the dashboard's format, with the zone named.
    expect(html).not.toMatch(/\d% uptime/);
    expect(html).toMatch(/<time datetime="[^"]+">[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2} [AP]M UTC<\/time>/);
    expect(html.match(/<ol class="bar"/g)).toHaveLength(3);
  });

  it('serves the incidents as an Atom feed', async () => {
    const res = await get('/status/default/status/feed.atom');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const xml = await res.text();
    expectNothingPrivate(xml);
    expect(xml).toMatch(/^<\?xml version="1\.0" encoding="utf-8"\?>\n<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom">/);
    expect(xml.trimEnd().endsWith('</feed>')).toBe(true);
    const feedLevel = xml.replace(/<entry>[\s\S]*?<\/entry>/g, '');
    for (const element of ['id', 'title', 'updated']) expect(feedLevel).toMatch(new RegExp(`<${element}>[^<]+</${element}>`));
    expect(feedLevel).toContain(`<link rel="self" href="${daemon.deps.config.baseUrl.replace(/\/$/, '')}/status/default/status/feed.atom"/>`);
    const entries = [...xml.matchAll(/<entry>([\s\S]*?)<\/entry>/g)].map((m) => m[1]);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toContain('<title>Payments is down (open)</title>');
    expect(entries[0]).toContain(`<updated>${NOW.toISOString()}</updated>`);
    expect(entries[0]).toMatch(/<id>[^<]+<\/id>/);
    // Every element opened is closed, in order.
    const stack: string[] = [];
    for (const [, closing, name, selfClosing] of xml.replace(/<\?xml[^>]*\?>/, '').matchAll(/<(\/?)([a-z]+)[^>]*?(\/?)>/g)) {
      if (selfClosing) continue;
      if (closing) expect(stack.pop()).toBe(name);
      else stack.push(name);
    }
    expect(stack).toEqual([]);

    // RFC 4287: the feed has an author, and each entry an id unique to its incident.
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    const ATOM = 'http://www.w3.org/2005/Atom';
    const feed = doc.documentElement!;
    const author = Array.from({ length: feed.childNodes.length }, (_, i) => feed.childNodes.item(i)).find(
      (node) => node.nodeType === 1 && (node as Element).localName === 'author',
    ) as Element | undefined;
    expect(author?.getElementsByTagNameNS(ATOM, 'name')[0]?.textContent).toBe('Example status');
    const incidents = (await daemon.request('GET', '/orgs/default/incidents', { token: admin })).body.items as Array<{ uid: string; title: string }>;
    const entryList = doc.getElementsByTagNameNS(ATOM, 'entry');
    const ids = Array.from({ length: entryList.length }, (_, i) => entryList.item(i)!).map((entry) => entry.getElementsByTagNameNS(ATOM, 'id')[0]?.textContent);
    expect(ids).toEqual([
      expect.stringMatching(new RegExp(`^tag:[^,]+,\\d{4}-\\d{2}-\\d{2}:incident/${incidents.find((i) => i.title === 'Payments is down')!.uid}$`)),
    ]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('answers 304 to a matching If-None-Match on the page, JSON, feed and badges', async () => {
    for (const path of [
      '/status/default/status',
      '/status/default/status/feed.atom',
      '/api/v1/public/status/default/status',
      '/api/v1/public/badges/default/payments/status.svg',
      '/api/v1/public/badges/default/website/uptime.svg?window=7d',
    ]) {
      const first = await get(path);
      expect(first.status, path).toBe(200);
      const etag = first.headers.get('etag')!;
      expect(etag, path).toMatch(/^"[\w-]+"$/);
      // fetch marks a conditional request no-cache, which a server may not answer from its ETag; browsers revalidate with max-age=0.
      const again = await get(path, { 'if-none-match': etag, 'cache-control': 'max-age=0' });
      expect(again.status, path).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('cache-control'), path).toBe('public, max-age=30');
      expect((await get(path, { 'if-none-match': '"other"', 'cache-control': 'max-age=0' })).status, path).toBe(200);
    }
  });

  it('tags the HTML page by what it shows: the same tag while nothing changes, a new page once something does', async () => {
    const path = '/status/default/status';
    const revalidate = (etag: string) => get(path, { 'if-none-match': etag, 'cache-control': 'max-age=0' });
    const first = await get(path);
    const etag = first.headers.get('etag')!;
    expect(first.headers.get('content-encoding')).toBe('gzip');
    expect(etag).toMatch(/-gz"$/);
    const page = await first.text();
    // Again: the same tag, and the same page (its compressed body from the cache).
    const again = await get(path);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe(page);
    // Without gzip: its own tag, and the same page.
    const plain = await get(path, { 'accept-encoding': 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('etag')).toBe(etag.replace('-gz"', '"'));
    expect(await plain.text()).toBe(page);

    try {
      expect((await daemon.request('PATCH', '/orgs/default/status-pages/status', { token: admin, body: { description: 'Changed <now>' } })).status).toBe(200);
      const changed = await revalidate(etag);
      expect(changed.status).toBe(200);
      expect(await changed.text()).toContain('Changed &lt;now&gt;');
      const newTag = changed.headers.get('etag')!;
      expect(newTag).not.toBe(etag);
      expect((await revalidate(newTag)).status).toBe(304);
    } finally {
      await daemon.request('PATCH', '/orgs/default/status-pages/status', { token: admin, body: { description: 'Our public services.' } });
    }
  });

  it('draws badges of the state and the uptime of checks on a public page', async () => {
    const status = await get('/api/v1/public/badges/default/payments/status.svg');
    expect(status.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    const svg = await status.text();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain('<title>Payments: down</title>');
    expectNothingPrivate(svg);
    expect(await (await get('/api/v1/public/badges/default/website/uptime.svg?window=24h')).text()).toContain('<title>uptime 24h: 100%</title>');
    expect(await (await get('/api/v1/public/badges/default/search/uptime.svg?window=90d')).text()).toMatch(/<title>uptime 90d: 99\.\d+%<\/title>/);
    const bad = await get('/api/v1/public/badges/default/website/uptime.svg?window=1y');
    expect(bad.status).toBe(400);
  });

  it('answers a private page, an unknown page or organization, and a check off every public page with the same 404', async () => {
    const htmlMissing = await (await get('/status/default/nothing')).text();
    for (const path of ['/status/default/internal', '/status/nowhere/status', '/status/default/internal/feed.atom']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toBe(htmlMissing);
    }
    const jsonMissing = await (await get('/api/v1/public/status/default/nothing')).text();
    for (const path of ['/api/v1/public/status/default/internal', '/api/v1/public/status/nowhere/status']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toBe(jsonMissing);
    }
    const badgeMissing = await (await get('/api/v1/public/badges/default/no-such-check/status.svg')).text();
    for (const path of [
      '/api/v1/public/badges/default/internal-billing/status.svg',
      '/api/v1/public/badges/default/internal-billing/uptime.svg',
      '/api/v1/public/badges/nowhere/website/status.svg',
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toBe(badgeMissing);
    }
    // Signed in or not, the public address is the same 404: members preview through the API.
    expect((await fetch(`${daemon.url}/api/v1/public/status/default/internal`, { headers: { authorization: `Bearer ${admin}` } })).status).toBe(404);
  });

  it('lets members preview a private page, and nobody else', async () => {
    const preview = await daemon.request('GET', '/orgs/default/status-pages/internal/preview', { token: viewer });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ title: 'Internal', state: 'operational', checks: [{ name: 'Internal Billing', state: 'up' }] });
    expect((await daemon.request('GET', '/orgs/default/status-pages/internal/preview')).status).toBe(401);
    const stranger = await daemon.register('status-stranger@example.com');
    expect((await daemon.request('GET', '/orgs/default/status-pages/internal/preview', { token: stranger.token })).status).toBe(404);
  });

  it('shows a page made public at once, and hides it again', async () => {
    await daemon.request('PATCH', '/orgs/default/status-pages/internal', { token: admin, body: { public: true } });
    expect((await get('/status/default/internal')).status).toBe(200);
    expect((await get('/api/v1/public/badges/default/internal-billing/status.svg')).status).toBe(200);
    await daemon.request('PATCH', '/orgs/default/status-pages/internal', { token: admin, body: { public: false } });
    expect((await get('/status/default/internal')).status).toBe(404);
    expect((await get('/api/v1/public/badges/default/internal-billing/status.svg')).status).toBe(404);
  });

  describe.skipIf(browserSkipReason())('in Chromium', () => {
    let browser: TestBrowser;
    // biome-ignore lint/suspicious/noDuplicateTestHooks: these hooks belong to this nested describe, not to the outer one
    beforeAll(async () => {
      browser = await launchBrowser();
    });
    // biome-ignore lint/suspicious/noDuplicateTestHooks: as above
    afterAll(() => browser?.close());

    for (const width of [1280, 375]) {
      it(`fits ${width} px with its style applied under its CSP, without console errors`, async () => {
        const page = await browser.newPage({ width, height: 900 });
        await page.goto(`${daemon.url}/status/default/status`);
        expect(await page.locator('h1').textContent()).toBe('Example status');
        // The style sheet is applied (allowed by its hash): the bars are flex rows of cells.
        expect(
          await page
            .locator('ol.bar')
            .first()
            .evaluate((el) => getComputedStyle(el).display),
        ).toBe('flex');
        expect(await fitsWidth(page)).toBe(true);
        expect(await page.getByText('Degraded performance').isVisible()).toBe(true);
        if (kind === 'sqlite') await page.screenshot({ path: join(docScreenshotsDir(), `status-page-${width}.png`), fullPage: true });
        expect(browser.problems).toEqual([]);
        await page.close();
      });
    }
  });
});

describe.each(DATABASE_KINDS)('public status pages: rate limit per client [%s]', (kind) => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { env: { SVC_STATUS_PAGE_RATE_LIMIT: '3', SVC_TRUST_PROXY: '1' } });
  });
  afterAll(() => daemon?.stop());

  it('answers 429 with Retry-After past the limit, to that client only, across pages, JSON and badges', async () => {
    const as = (client: string, path: string) => fetch(`${daemon.url}${path}`, { headers: { 'x-forwarded-for': client } });
    expect((await as('192.0.2.1', '/status/default/a')).status).toBe(404);
    expect((await as('192.0.2.1', '/api/v1/public/status/default/a')).status).toBe(404);
    expect((await as('192.0.2.1', '/api/v1/public/badges/default/a/status.svg')).status).toBe(404);
    const limited = await as('192.0.2.1', '/status/default/a');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited.json()).error.code).toBe('RATE_LIMITED');
    expect((await as('192.0.2.2', '/status/default/a')).status).toBe(404);
  });
});
