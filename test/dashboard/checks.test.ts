import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, fitsWidth, launchBrowser, saveScreenshot, type TestBrowser } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { fieldError, signInAsAdmin } from './flows.js';

const skip = browserSkipReason();

/**
 * Holds the page's next read of the check list whose address `matches`, until `release` (which
 * waits for its answer): a read made slow, to order it against others.
 */
async function holdNextListRead(page: Page, matches: (url: URL) => boolean): Promise<{ asked: Promise<void>; release(): Promise<void> }> {
  let held = false;
  let ask!: () => void;
  let letGo!: () => void;
  const asked = new Promise<void>((resolve) => (ask = resolve));
  const released = new Promise<void>((resolve) => (letGo = resolve));
  let answered: Promise<unknown> | undefined;
  await page.route(
    (url) => url.pathname === '/api/v1/orgs/default/checks',
    async (route) => {
      const request = route.request();
      if (held || !matches(new URL(request.url()))) return route.fallback();
      held = true;
      answered = page.waitForResponse((response) => response.request() === request);
      ask();
      await released;
      return route.fallback();
    },
  );
  return {
    asked,
    async release() {
      letGo();
      await answered;
      // The answer is handled on the page's next turn.
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
    },
  };
}

describe.skipIf(skip).each(DATABASE_KINDS)('dashboard checks [%s]', (kind) => {
  let daemon: TestDaemon;
  let browser: TestBrowser;
  let token: string;

  beforeAll(async () => {
    [daemon, browser] = await Promise.all([startTestDaemon(kind), launchBrowser()]);
    token = await daemon.adminToken();
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it('creates a check from the form generated from the type schema, showing server errors next to fields', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/');
    // The start page is the first organization's overview.
    await page.waitForURL(/\/orgs\/default\/overview$/);
    await page.getByRole('link', { name: 'Checks', exact: true }).click();
    await page.getByText('No checks yet.').waitFor();
    await page.getByRole('link', { name: 'New check' }).click();
    await page.getByRole('heading', { name: 'New check' }).waitFor();

    expect(await page.getByLabel('Type', { exact: true }).inputValue()).toBe('http');
    await page.getByLabel('Name', { exact: true }).fill('Homepage');
    await page.getByLabel('Target', { exact: true }).fill('ftp://example.com');
    await page.getByLabel('Method (optional)', { exact: true }).selectOption('HEAD');
    await page.getByLabel('Expected status codes (optional)', { exact: true }).fill('200\n301-302');
    await page.getByLabel('Labels (optional)', { exact: true }).fill('team=web');
    await page.getByRole('button', { name: 'Create check' }).click();
    expect(await fieldError(page, 'check-target')).toContain('scheme');
    await saveScreenshot(page, `check-form-${kind}`);

    await page.getByLabel('Target', { exact: true }).fill('https://example.com/');
    await page.getByRole('button', { name: 'Create check' }).click();
    await page.getByRole('heading', { name: 'Homepage' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/orgs/default/checks/homepage');

    const stored = await daemon.request('GET', '/orgs/default/checks/homepage', { token });
    expect(stored.body).toMatchObject({ name: 'Homepage', type: 'http', target: 'https://example.com/', labels: { team: 'web' } });
    expect(stored.body.config).toMatchObject({ method: 'HEAD', expectedStatusCodes: [200, '301-302'] });
  });

  it('edits a check with a merge patch: a removed label is removed', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/checks/homepage');
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit Homepage' }).waitFor();
    expect(await page.getByLabel('Type', { exact: true }).isDisabled()).toBe(true);
    await page.getByLabel('Name', { exact: true }).fill('Home page');
    await page.getByLabel('Labels (optional)', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Home page' }).waitFor();
    const stored = await daemon.request('GET', '/orgs/default/checks/homepage', { token });
    expect(stored.body.labels).toEqual({});
    expect(stored.body.config.method).toBe('HEAD');
  });

  it('filters the list by type and label, in the address', async () => {
    const sample = await daemon.request('GET', '/check-types/tcp/sample', { token });
    const created = await daemon.request('POST', '/orgs/default/checks', {
      token,
      body: { ...sample.body, slug: 'db-port', name: 'DB port', labels: { team: 'data' } },
    });
    expect(created.status).toBe(201);
    const page = await browser.newPage({ width: 375 });
    await signInAsAdmin(page, daemon, '/orgs/default/checks');
    await page.locator('tr[data-slug="db-port"]').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(2);
    expect(await fitsWidth(page)).toBe(true);

    await page.getByLabel('Type', { exact: true }).selectOption('tcp');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/\?type=tcp$/);
    await page.locator('tr[data-slug="homepage"]').waitFor({ state: 'detached' });
    expect(await page.locator('tbody tr').count()).toBe(1);

    await page.goto(`${daemon.url}/orgs/default/checks?label=team%3Dnone`);
    await page.getByText('No check matches these filters.').waitFor();
    await page.goto(`${daemon.url}/orgs/default/checks?label=team%3Ddata`);
    await page.locator('tr[data-slug="db-port"]').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(1);
    expect(await page.getByLabel('Labels', { exact: true }).inputValue()).toBe('team=data');
  });

  it('deletes a check after confirmation', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/checks/db-port');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/orgs\/default\/checks$/);
    await page.locator('tr[data-slug="homepage"]').waitFor();
    expect(await page.locator('tr[data-slug="db-port"]').count()).toBe(0);
    expect((await daemon.request('GET', '/orgs/default/checks/db-port', { token })).status).toBe(404);
  });

  it('shows an unknown check as a message', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/checks/nope');
    await page.getByRole('alert').filter({ hasText: 'No check with slug "nope"' }).waitFor();
  });

  it('loads the list 50 at a time; a new filter starts again from the first page; reads during either keep the pages right', async () => {
    // Paused, so no run moves a row while the pages load; a heartbeat outside the filter gives the
    // state changes that make the list read its pages again.
    const sample = (await daemon.request('GET', '/check-types/icmp/sample', { token })).body;
    for (let i = 0; i < 60; i++) {
      const slug = `fleet-${String(i).padStart(2, '0')}`;
      const created = await daemon.request('POST', '/orgs/default/checks', {
        token,
        body: { ...sample, slug, name: `Fleet ${String(i).padStart(2, '0')}`, labels: { fleet: 'big' }, enabled: false },
      });
      expect(created.status).toBe(201);
    }
    const heartbeat = await daemon.request('POST', '/orgs/default/checks', {
      token,
      body: {
        slug: 'fleet-heartbeat',
        name: 'Fleet heartbeat',
        type: 'heartbeat',
        config: { periodSeconds: 86400 },
        thresholds: { failuresBeforeDown: 1, successesBeforeUp: 1 },
      },
    });
    expect(heartbeat.status).toBe(201);
    const ping = async (path = '') => {
      const url = (heartbeat.body as { pingUrl: string }).pingUrl.replace(/^https?:\/\/[^/]+/, daemon.url) + path;
      // One ping a second is recorded; a sooner one answers 429 and is sent again.
      await expect.poll(async () => (await fetch(url, { method: 'POST' })).status, { intervals: [250] }).toBeLessThan(300);
    };
    const page = await browser.newPage();
    const cursorReads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('cursor=')) cursorReads.push(request.url());
    });
    await signInAsAdmin(page, daemon, '/orgs/default/checks?label=fleet%3Dbig');
    await page.locator('tr[data-slug="fleet-49"]').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(50);
    await page.locator('[data-live="live"]').first().waitFor({ timeout: 20_000 });

    // A read of the first page on its way while "Load more" adds the second: the second stays.
    const reread = await holdNextListRead(page, (url) => !url.searchParams.has('cursor'));
    await ping();
    await reread.asked;
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.locator('tr[data-slug="fleet-59"]').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(60);
    await reread.release();
    expect(await page.locator('tbody tr').count()).toBe(60);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    // A read while the new filter's first page is on its way reads that first page only, never
    // the old filter's second page still on screen.
    const firstPage = await holdNextListRead(page, (url) => url.searchParams.get('type') === 'icmp');
    const readsBefore = cursorReads.length;
    await page.getByLabel('Type', { exact: true }).selectOption('icmp');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/\?type=icmp&label=fleet%3Dbig$/);
    await firstPage.asked;
    const refreshed = page.waitForResponse((response) => response.url().includes('type=icmp'));
    await ping('/fail');
    await refreshed;
    await firstPage.release();
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 50);
    await page.getByRole('button', { name: 'Load more' }).waitFor();
    // Time for a read of the old second page, had one been asked for, to land.
    await page.waitForTimeout(1_000);
    expect(await page.locator('tbody tr').count()).toBe(50);
    expect(cursorReads.slice(readsBefore)).toEqual([]);
  });

  it('lists what needs attention first, keeps the order in the address, and fits long targets and labels at 1280 px', async () => {
    const states: Record<string, 'up' | 'down' | 'degraded' | 'paused' | 'pending'> = {
      'att-up': 'up',
      'att-down': 'down',
      'att-paused': 'paused',
      'att-degraded': 'degraded',
      'att-pending': 'pending',
    };
    const db = daemon.deps.db.kysely;
    for (const [slug, state] of Object.entries(states)) {
      const target = `https://status.internal.example.com/api/v2/health/components/${slug}/readiness?verbose=true&region=eu-central`;
      const labels = { team: 'platform-reliability', environment: 'production', attention: 'yes' };
      const created = await daemon.request('POST', '/orgs/default/checks', {
        token,
        body: { name: slug, slug, type: 'http', target, labels, enabled: state !== 'paused' },
      });
      expect(created.status).toBe(201);
      if (state === 'paused' || state === 'pending') continue;
      expect((await daemon.request('GET', `/orgs/default/checks/${slug}`, { token })).status).toBe(200);
      const { uid } = await db.selectFrom('checks').select('uid').where('slug', '=', slug).executeTakeFirstOrThrow();
      await db.updateTable('check_states').set({ state }).where('check_uid', '=', uid).execute();
    }
    const page = await browser.newPage({ width: 1280 });
    await signInAsAdmin(page, daemon, '/orgs/default/checks?label=attention%3Dyes');
    await page.locator('tr[data-slug="att-up"]').waitFor();
    const order = () => page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-slug')));
    expect(await order()).toEqual(['att-down', 'att-degraded', 'att-pending', 'att-up', 'att-paused']);

    // A target wraps into at most three lines; every label chip is shown whole inside the table's box.
    const layout = await page.evaluate(() => {
      const cell = document.querySelector('tr[data-slug="att-up"] td.target-cell') as HTMLElement;
      const lineHeight = parseFloat(getComputedStyle(cell).lineHeight);
      const padding = parseFloat(getComputedStyle(cell).paddingTop) + parseFloat(getComputedStyle(cell).paddingBottom);
      const box = (document.querySelector('.table-wrap') as HTMLElement).getBoundingClientRect();
      const clipped = [...document.querySelectorAll('td.label-cell .badge')].filter((chip) => {
        const r = chip.getBoundingClientRect();
        return r.right > box.right + 0.5 || r.left < box.left - 0.5;
      }).length;
      return {
        lines: Math.round((cell.getBoundingClientRect().height - padding) / lineHeight),
        clipped,
        scrolls: (document.querySelector('.table-wrap') as HTMLElement).scrollWidth > box.width + 1,
      };
    });
    expect(layout.lines).toBeLessThanOrEqual(3);
    expect(layout).toMatchObject({ clipped: 0, scrolls: false });

    await page.getByLabel('Order', { exact: true }).selectOption('name');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/\?label=attention%3Dyes&order=name$/);
    await page.waitForFunction(() => document.querySelector('tbody tr')?.getAttribute('data-slug') === 'att-degraded');
    expect(await order()).toEqual(['att-degraded', 'att-down', 'att-paused', 'att-pending', 'att-up']);
    await page.reload();
    await page.locator('tr[data-slug="att-up"]').waitFor();
    expect(await page.getByLabel('Order', { exact: true }).inputValue()).toBe('name');
    expect(await order()).toEqual(['att-degraded', 'att-down', 'att-paused', 'att-pending', 'att-up']);
  });

  it('showed no console errors on any page', () => {
    expect(browser.problems).toEqual([]);
  });
});
