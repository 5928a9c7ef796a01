import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchBrowser, type TestBrowser } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { openEvents, type SseClient } from '../support/sse.js';
import { signInAsAdmin } from './flows.js';

const skip = browserSkipReason();

/** Longer than the dashboard's former polling interval (5 s): a view that polled would ask in this time. */
const QUIET_MS = 6_500;

/** The API requests a page makes, apart from its event stream. */
function apiRequests(page: Page): { since(): string[]; reset(): void } {
  let seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/v1/') && !url.pathname.endsWith('/events')) seen.push(`${request.method()} ${url.pathname}${url.search}`);
  });
  return {
    since: () => [...seen],
    reset: () => {
      seen = [];
    },
  };
}

/** Answers the page's first API request matching `url` with a 429, as a busy daemon would, and lets the rest through. */
async function refuseOnce(page: Page, url: RegExp): Promise<{ count: number }> {
  const refused = { count: 0 };
  await page.route(url, async (route) => {
    if (refused.count > 0) return route.continue();
    refused.count++;
    return route.fulfill({
      status: 429,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'Too many requests; try again in a moment.' } }),
    });
  });
  return refused;
}

/** Marks the page, so a reload (which would lose the mark) shows. */
const mark = (page: Page) => page.evaluate(() => Object.assign(window, { notReloaded: true }));
const stillMarked = (page: Page) => page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true);

describe.skipIf(skip).each(DATABASE_KINDS)('dashboard live updates [%s]', (kind) => {
  let daemon: TestDaemon;
  let browser: TestBrowser;
  let target: Server;
  let failing = false;
  let token: string;

  const run = async (slug: string) => expect((await daemon.request('POST', `/orgs/default/checks/${slug}/run`, { token })).status).toBe(200);
  const ping = async (url: string) => expect((await fetch(url.replace(/^https?:\/\/[^/]+/, daemon.url), { method: 'POST' })).status).toBeLessThan(300);
  const live = (page: Page) => page.locator('[data-live="live"]').first().waitFor({ timeout: 20_000 });

  beforeAll(async () => {
    target = createServer((_request, response) => {
      response.statusCode = failing ? 503 : 200;
      response.end(failing ? 'failing' : 'ok');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    [daemon, browser] = await Promise.all([startTestDaemon(kind, { env: { SVC_EVENTS_MAX_STREAMS_PER_MEMBER: '3' } }), launchBrowser()]);
    token = await daemon.adminToken();
    const thresholds = { failuresBeforeDown: 1, successesBeforeUp: 1, timeoutMs: 5000 };
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    for (const body of [
      { slug: 'shop', name: 'Shop', type: 'http', target: url, intervalSeconds: 3600, thresholds },
      { slug: 'backup', name: 'Backup', type: 'heartbeat', config: { periodSeconds: 86400 }, thresholds },
    ])
      expect((await daemon.request('POST', '/orgs/default/checks', { token, body })).status).toBe(201);
    await run('shop');
  }, 60_000);
  /** Pages and streams of a test, closed after it (each holds one of the member's places). */
  const opened: Array<{ close(): unknown }> = [];
  const newPage = async () => {
    const page = await browser.newPage();
    opened.push(page);
    return page;
  };
  afterEach(async () => {
    for (const one of opened.splice(0)) await one.close();
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    target?.close();
  });

  it('the open check list, check page and incidents follow a check going down without a reload and without polling', async () => {
    const backupPing = (await daemon.request('GET', '/orgs/default/checks/backup', { token })).body.pingUrl as string;
    await ping(backupPing);

    const list = await newPage();
    await signInAsAdmin(list, daemon, '/orgs/default/checks');
    const detail = await newPage();
    await signInAsAdmin(detail, daemon, '/orgs/default/checks/shop');
    const incidents = await newPage();
    await signInAsAdmin(incidents, daemon, '/orgs/default/incidents');
    const pages = [list, detail, incidents];
    for (const page of pages) await live(page);
    await list.locator('tr[data-slug="shop"][data-state="up"]').waitFor();
    await list.locator('tr[data-slug="backup"][data-state="up"]').waitFor();
    await detail.locator('.monitoring .lead .state-up').waitFor();
    const resultsBefore = await detail.locator('table.results tbody tr').count();

    // Settled: from now on nothing is asked while nothing happens.
    await list.waitForTimeout(1_000);
    const requests = pages.map(apiRequests);
    for (const page of pages) await mark(page);
    await list.waitForTimeout(QUIET_MS);
    expect(requests.map((r) => r.since())).toEqual([[], [], []]);

    // The target starts failing; a run on the server turns the check down.
    failing = true;
    await run('shop');
    await list.locator('tr[data-slug="shop"][data-state="down"]').waitFor({ timeout: 10_000 });
    await detail.locator('.monitoring .lead .state-down').waitFor({ timeout: 10_000 });
    await incidents.locator('[data-incident="Shop is down"][data-status="open"]').waitFor({ timeout: 10_000 });
    // The run itself joined the check page's results in place.
    await expect.poll(() => detail.locator('table.results tbody tr').count(), { timeout: 10_000 }).toBe(resultsBefore + 1);
    expect(await detail.locator('table.results tbody tr').first().getAttribute('data-status')).toBe('down');
    // A heartbeat's /fail ping does the same.
    await ping(`${backupPing}/fail`);
    await list.locator('tr[data-slug="backup"][data-state="down"]').waitFor({ timeout: 10_000 });
    for (const page of pages) expect(await stillMarked(page)).toBe(true);
    // What was asked came after the events (the views reading again what they show), no more.
    expect(requests[0].since().every((request) => request.startsWith('GET /api/v1/orgs/default/checks?'))).toBe(true);
    expect(requests[2].since().every((request) => request.startsWith('GET /api/v1/orgs/default/incidents'))).toBe(true);
  }, 90_000);

  it('reads every few seconds while the stream is refused (429), and stops once it is back', async () => {
    failing = false;
    await run('shop');
    // Every place this member may have is taken (the streams of the pages closed before may take a moment to go).
    const taken: SseClient[] = [];
    await expect
      .poll(
        async () => {
          const stream = await openEvents(`${daemon.url}/api/v1/orgs/default/events`, token);
          if (stream.status === 200) {
            taken.push(stream);
            opened.push(stream);
          }
          return taken.length;
        },
        { timeout: 15_000 },
      )
      .toBe(3);
    expect((await openEvents(`${daemon.url}/api/v1/orgs/default/events`, token)).status).toBe(429);

    const page = await newPage();
    const requests = apiRequests(page);
    await signInAsAdmin(page, daemon, '/orgs/default/checks');
    await page.locator('[data-live="down"]').waitFor({ timeout: 15_000 });
    await page.locator('tr[data-slug="shop"][data-state="up"]').waitFor();
    await mark(page);
    requests.reset();
    failing = true;
    await run('shop');
    await page.locator('tr[data-slug="shop"][data-state="down"]').waitFor({ timeout: 10_000 });
    expect(requests.since().length).toBeGreaterThan(0);
    expect(await stillMarked(page)).toBe(true);

    for (const stream of taken) stream.close();
    await live(page);
    await page.waitForTimeout(1_000);
    requests.reset();
    await page.waitForTimeout(QUIET_MS);
    expect(requests.since()).toEqual([]);
  }, 90_000);

  it('reads a view again whose first read failed, while the stream is live and no event comes', async () => {
    const page = await newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/checks');
    await page.locator('tr[data-slug="shop"]').waitFor();
    // Opened again, the check list's first read is refused as a busy daemon would (429); the rest go through.
    const refused = await refuseOnce(page, /\/api\/v1\/orgs\/default\/checks\?/);
    await page.reload();
    await live(page);
    expect(refused.count).toBe(1);
    // Nothing happens on the server meanwhile: only the view itself can bring the rows.
    await page.locator('tr[data-slug="shop"]').waitFor({ timeout: 15_000 });
    await page.locator('tr[data-slug="backup"]').waitFor();
  }, 60_000);

  it('reads the overview again every few seconds after a read failed, though the stream is live and no event comes', async () => {
    failing = false;
    await run('shop');
    const page = await newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/overview');
    await live(page);
    await page.locator('[data-count="up"] .count').waitFor();
    // The read that follows the next event is refused, as a busy daemon would (429).
    const refused = await refuseOnce(page, /\/api\/v1\/orgs\/default\/check-states/);
    failing = true;
    await run('shop');
    await page.locator('[data-error-code="RATE_LIMITED"]').waitFor({ timeout: 10_000 });
    // Nothing more happens on the server: the overview reads again by itself, and shows the check down.
    await page.locator('[data-error-code="RATE_LIMITED"]').waitFor({ state: 'detached', timeout: 15_000 });
    expect(refused.count).toBe(1);
    expect(Number(await page.locator('[data-count="down"] .count').textContent())).toBeGreaterThanOrEqual(1);
    failing = false;
  }, 60_000);

  it('reported no console errors', () => {
    expect(browser.problems).toEqual([]);
  });
});
