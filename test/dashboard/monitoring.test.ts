import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, docScreenshots, fitsWidth, launchBrowser, type TestBrowser } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { signInAsAdmin } from './flows.js';

const skip = browserSkipReason();

/** A local target: 200 at /ok, 200 after 3 s at /slow, 500 at /broken. */
async function startTarget(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.url === '/slow') setTimeout(() => response.end('slow'), 3000);
    else if (request.url === '/broken') {
      response.statusCode = 500;
      response.end('broken');
    } else response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe.skipIf(skip).each(DATABASE_KINDS)('dashboard monitoring views [%s]', (kind) => {
  let daemon: TestDaemon;
  let browser: TestBrowser;
  let target: { url: string; server: Server };
  let token: string;

  const create = async (body: Record<string, unknown>) => {
    const created = await daemon.request('POST', '/orgs/default/checks', { token, body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  };
  const run = async (slug: string, times = 2) => {
    for (let i = 0; i < times; i++) expect((await daemon.request('POST', `/orgs/default/checks/${slug}/run`, { token })).status).toBe(200);
  };

  beforeAll(async () => {
    [daemon, browser, target] = await Promise.all([startTestDaemon(kind, { env: { SVC_CHECKS_PER_ORG_LIMIT: '0' } }), launchBrowser(), startTarget()]);
    token = await daemon.adminToken();
    // Far apart, so a busy machine's slow answer at /ok is not taken for degraded.
    const thresholds = { failuresBeforeDown: 1, successesBeforeUp: 1, timeoutMs: 8000, degradedResponseMs: 1500 };
    await create({ slug: 'web', name: 'Web', type: 'http', target: `${target.url}/ok`, intervalSeconds: 60, thresholds, labels: { team: 'web' } });
    await create({ slug: 'slow-api', name: 'Slow API', type: 'http', target: `${target.url}/slow`, intervalSeconds: 60, thresholds, labels: { team: 'api' } });
    await create({ slug: 'billing', name: 'Billing', type: 'http', target: `${target.url}/broken`, intervalSeconds: 60, thresholds, labels: { team: 'api' } });
    await create({ slug: 'nightly-backup', name: 'Nightly backup', type: 'heartbeat', config: { periodSeconds: 86400 } });
    await run('web', 3);
    await run('slow-api');
    await run('billing');
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    target?.server.close();
  });

  it('lists checks with state words, 24 h uptime and last run, filters by state, and refreshes by itself', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/checks');
    await page.locator('tr[data-slug="billing"]').waitFor();
    for (const [slug, state] of [
      ['web', 'up'],
      ['slow-api', 'degraded'],
      ['billing', 'down'],
    ]) {
      const row = page.locator(`tr[data-slug="${slug}"]`);
      expect(await row.getAttribute('data-state')).toBe(state);
      expect(await row.locator('.state').textContent()).toContain(state);
    }
    expect(await page.locator('tr[data-slug="web"] td.num').first().textContent()).toBe('100.00 %');
    expect(await page.locator('tr[data-slug="billing"] td.num').first().textContent()).toBe('0.00 %');

    // The sparkline draws the last runs' response times; a run made elsewhere shows up without a reload.
    const spark = page.locator('tr[data-slug="web"] svg.sparkline');
    const points = async () => ((await spark.getAttribute('aria-label')) ?? '').split(',').length;
    expect(await points()).toBe(3);
    // Runs move the sparkline through the live stream: a run before the stream is up is read at the next refresh.
    await page.locator('[data-live="live"]').first().waitFor({ timeout: 20_000 });
    await run('web', 1);
    await expect.poll(points, { timeout: 15_000 }).toBe(4);

    await page.getByLabel('State', { exact: true }).selectOption('down');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/state=down/);
    await page.locator('tr[data-slug="web"]').waitFor({ state: 'detached' });
    expect(await page.locator('tbody tr').count()).toBe(1);
    await page.goto(`${daemon.url}/orgs/default/checks`);
    await page.locator('tr[data-slug="billing"]').waitFor();
    await docScreenshots(page, 'checks', kind);
  });

  it('shows a check with a response-time chart, uptime windows, the 90-day bar, results and Run now', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/checks/web');
    await page.locator('.response-chart[data-drawn="true"] canvas').waitFor();
    expect(await page.locator('.uptime-windows [data-window="24h"] dd').textContent()).toContain('100.00 %');
    expect(await page.locator('.uptime-bar .day').count()).toBe(90);
    expect(await page.locator('.uptime-bar .day-good').count()).toBe(1);
    const before = await page.locator('table.results tbody tr').count();
    await page.getByRole('button', { name: 'Run now' }).click();
    await page
      .locator('.run-result')
      .getByText(/up, \d+ ms/)
      .waitFor();
    await expect.poll(() => page.locator('table.results tbody tr').count()).toBeGreaterThan(before);
    await docScreenshots(page, 'check-detail', kind);

    // A check that went down shows its state and, in its state history, the change with its cause.
    await page.goto(`${daemon.url}/orgs/default/checks/billing`);
    await page.locator('.monitoring .lead .state-down').waitFor();
    expect(await page.locator('.timeline li[data-to="down"]').textContent()).toContain('500');
    expect(await fitsWidth(page)).toBe(true);
  });

  it('shows a heartbeat check its ping URL with a copy button and a curl example', async () => {
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: daemon.url });
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/checks/nightly-backup');
    const shown = (await page.locator('[data-ping-url]').textContent())!.trim();
    expect(shown).toMatch(/\/api\/v1\/ping\/[\w-]+$/);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
    expect(await page.locator('.ping-url pre').first().textContent()).toContain(`curl -fsS -m 10 --retry 3 ${shown}`);
    // The copied URL works: a ping turns the heartbeat up.
    const pinged = await fetch(shown.replace(/^https?:\/\/[^/]+/, daemon.url), { method: 'POST' });
    expect(pinged.status).toBeLessThan(300);
    await page.locator('.monitoring .lead .state-up').waitFor({ timeout: 15_000 });
    await docScreenshots(page, 'heartbeat', kind);
  });

  it('lands on the overview: counts per state, open incidents, latest state changes', async () => {
    const opened = await daemon.request('POST', '/orgs/default/incidents', { token, body: { title: 'Billing is failing', checkSlug: 'billing' } });
    expect(opened.status).toBe(201);
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/');
    await page.waitForURL(/\/orgs\/default\/overview$/);
    await page.locator('[data-count="down"] .count').waitFor();
    expect(await page.locator('[data-count="up"] .count').textContent()).toBe('2');
    expect(await page.locator('[data-count="degraded"] .count').textContent()).toBe('1');
    expect(await page.locator('[data-count="down"] .count').textContent()).toBe('1');
    expect(await page.locator('[data-count="paused"] .count').textContent()).toBe('0');
    await page.locator('[data-incident="Billing is failing"]').waitFor();
    // The latest state changes, newest first: each check's first verdict.
    expect(await page.locator('tr[data-slug]').count()).toBe(4);
    expect(await page.locator('tr[data-slug="billing"]').getAttribute('data-to')).toBe('down');
    expect(await page.locator('tr[data-slug="nightly-backup"]').getAttribute('data-to')).toBe('up');
    await docScreenshots(page, 'overview', kind);
  });

  it('shows each incident as a timeline and lets a writer acknowledge and resolve it', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/incidents');
    const card = page.locator('[data-incident="Billing is failing"]');
    await card.locator('[data-step="opened"]').getByText('admin@svc.local').waitFor();
    await card.getByRole('button', { name: 'Acknowledge' }).click();
    await card.locator('[data-step="acknowledged"]').getByText('admin@svc.local').waitFor();
    await card.getByRole('button', { name: 'Resolve' }).click();
    await card.locator('[data-step="resolved"]').waitFor();
    expect(await card.getAttribute('data-status')).toBe('resolved');
    await docScreenshots(page, 'incidents', kind);
  });

  // The first-paint target (under 1 s) is measured by `npm run bench -- dashboard`; here the
  // 10,000-check list must work, and its time is printed.
  it('pauses and resumes a check from its page; its incidents say why they opened and that the check was paused', async () => {
    await create({
      slug: 'pausable',
      name: 'Pausable',
      type: 'http',
      target: `${target.url}/broken`,
      intervalSeconds: 60,
      thresholds: { failuresBeforeDown: 1, successesBeforeUp: 1, timeoutMs: 5000 },
    });
    await run('pausable', 1);
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/checks/pausable');
    const incident = page.locator('.monitoring li[data-incident]');
    await incident.locator('.opening-message').waitFor();
    expect(await incident.locator('.opening-message').textContent()).toContain('500');

    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.getByRole('button', { name: 'Resume', exact: true }).waitFor();
    await page.locator('.monitoring .lead .state-paused').waitFor();
    expect((await daemon.request('GET', '/orgs/default/checks/pausable', { token })).body).toMatchObject({ enabled: false, state: 'paused' });
    await incident.locator('[data-mark="check-paused"]').waitFor({ timeout: 15_000 });
    expect(await incident.locator('.resolution').textContent()).toContain('the check was paused');

    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    expect((await daemon.request('GET', '/orgs/default/checks/pausable', { token })).body.enabled).toBe(true);
    await page.goto(`${daemon.url}/orgs/default/incidents?status=resolved`);
    await page.locator('[data-incident="Pausable is down"] .resolution').getByText('the check was paused').waitFor();
  });

  it('charts no data yet without a successful run, and one success on an hour around it with the down run marked', async () => {
    await create({
      slug: 'once',
      name: 'Once',
      type: 'http',
      target: `${target.url}/ok`,
      intervalSeconds: 60,
      thresholds: { failuresBeforeDown: 1, successesBeforeUp: 1, timeoutMs: 5000 },
    });
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/checks/billing');
    await page.locator('.chart-empty').getByText('No data yet').waitFor();
    expect(await page.locator('.response-chart').count()).toBe(0);

    await run('once', 1);
    expect((await daemon.request('PATCH', '/orgs/default/checks/once', { token, body: { target: `${target.url}/broken` } })).status).toBe(200);
    await run('once', 1);
    await page.goto(`${daemon.url}/orgs/default/checks/once`);
    const chart = page.locator('.response-chart[data-drawn="true"]');
    await chart.waitFor();
    expect(await chart.getAttribute('data-down-runs')).toBe('1');
    expect(Number(await chart.getAttribute('data-span-seconds'))).toBeLessThanOrEqual(3700);
    expect(await chart.getAttribute('aria-label')).toBe('Response times of the latest 2 runs, 1 down run marked in red');
    // The 90-day bar says what its colours and ends mean.
    expect(await page.locator('.bar-legend').textContent()).toContain('90 days ago');
    expect(await page.locator('.bar-legend').textContent()).toContain('no runs');

    // Words and numbers: singular for one, two decimals, dates with their time zone, no p95 for a heartbeat.
    expect(await page.locator('table.kv tr', { hasText: 'Down after' }).locator('td').textContent()).toBe('1 failure');
    expect(await page.locator('table.kv tr', { hasText: 'Up after' }).locator('td').textContent()).toBe('1 success');
    expect(await page.locator('.uptime-windows [data-window="24h"] dd').textContent()).toMatch(/^50\.00 % 2 runs, p95 \d+ ms$/);
    expect(await page.locator('table.kv tr', { hasText: 'Created' }).locator('td').textContent()).toMatch(/\d{2}:\d{2}.*(UTC|GMT)/);
    await page.goto(`${daemon.url}/orgs/default/checks/nightly-backup`);
    await page.locator('.uptime-windows [data-window="24h"] dd').waitFor();
    expect(await page.locator('.uptime-windows').textContent()).not.toContain('p95');
  });

  it('counts and lists 10,000 checks: the overview counts them all, the list paints its first page', async () => {
    expect((await daemon.request('POST', '/orgs', { token, body: { slug: 'big', name: 'Big' } })).status).toBe(201);
    const endpoints = Array.from(
      { length: 10_000 },
      (_, i) => `  - name: Service ${i}\n    url: ${target.url}/ok?n=${i}\n    interval: 5m\n    conditions: ["[STATUS] == 200"]\n`,
    ).join('');
    const imported = await daemon.request('POST', '/orgs/big/checks/import/convert?source=configfile-monitor', { token, raw: `endpoints:\n${endpoints}` });
    expect(imported.status).toBe(200);
    expect(imported.body.created).toBe(10_000);

    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/big/overview');
    const counted = page.locator('[data-count="pending"] .count').getByText('10000');
    try {
      await counted.waitFor({ timeout: 30_000 });
    } catch {
      // Seen once in a whole run on SQLite (the count never showed in 60 s; alone it shows in
      // about 2 s): say what the page showed instead, then read it once more.
      console.log(`[svc tests] overview of 10,000 checks without its count [${kind}]: ${((await page.locator('main').textContent()) ?? '').slice(0, 500)}`);
      await page.reload();
      await counted.waitFor({ timeout: 30_000 });
    }
    const started = Date.now();
    await page.goto(`${daemon.url}/orgs/big/checks`);
    await page.locator('tbody tr').first().waitFor();
    const firstPaintMs = Date.now() - started;
    console.log(`[svc tests] first paint of the 10,000-check list [${kind}]: ${firstPaintMs} ms`);
    expect(await page.locator('tbody tr').count()).toBe(50);
  }, 120_000);

  it('reported no console errors', () => {
    expect(browser.problems).toEqual([]);
  });
});
