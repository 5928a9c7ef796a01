import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, docScreenshots, fitsWidth, launchBrowser, type TestBrowser } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { signInAsAdmin } from './flows.js';

const skip = browserSkipReason();

describe.skipIf(skip).each(DATABASE_KINDS)('dashboard status pages [%s]', (kind) => {
  let daemon: TestDaemon;
  let browser: TestBrowser;

  beforeAll(async () => {
    [daemon, browser] = await Promise.all([startTestDaemon(kind), launchBrowser()]);
    const token = await daemon.adminToken();
    for (const name of ['Website', 'Search', 'Payments']) {
      const check = { name, type: 'tcp', target: `${name.toLowerCase()}.example.com:443` };
      expect((await daemon.request('POST', '/orgs/default/checks', { token, body: check })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it('creates a page, picks and orders checks, previews it, makes it public and offers its link and badges', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/checks');
    await page.getByRole('link', { name: 'Status pages' }).click();
    await page.getByRole('heading', { name: 'Status pages', level: 1 }).waitFor();
    await page.getByText('No status pages yet.').waitFor();
    await page.getByRole('link', { name: 'New status page' }).click();

    await page.getByLabel('Title').fill('Shop status');
    for (const option of ['Website (website)', 'Payments (payments)', 'Search (search)']) {
      await page.getByLabel('Add a check').selectOption({ label: option });
      await page.getByRole('button', { name: 'Add check' }).click();
    }
    await page.getByRole('button', { name: 'Move Search up' }).click();
    await page.getByRole('button', { name: 'Create status page' }).click();
    await page.getByRole('heading', { name: 'Shop status', level: 1 }).waitFor();
    expect((await daemon.request('GET', '/orgs/default/status-pages/shop-status', { token: await daemon.adminToken() })).body).toMatchObject({
      public: false,
      checks: ['website', 'search', 'payments'],
    });

    // Private: the preview shows it, the public address does not.
    await page.getByText('This page is private').waitFor();
    const preview = page.locator('section', { has: page.getByRole('heading', { name: 'Preview' }) });
    await preview.getByRole('cell', { name: 'Search' }).waitFor();
    expect((await fetch(`${daemon.url}/status/default/shop-status`)).status).toBe(404);

    await page.getByLabel('Public: anyone with the address can see this page').check();
    await page.getByRole('button', { name: 'Save status page' }).click();
    await page.getByText('Saved.').waitFor();
    const link = await page.getByLabel('Public link', { exact: true }).inputValue();
    expect(link).toBe(`${daemon.url}/status/default/shop-status`);
    await page.getByText('Badges of Payments').click();
    expect(await page.getByLabel('Markdown, state', { exact: true }).last().inputValue()).toBe(
      `[![Payments: state](${daemon.url}/api/v1/public/badges/default/payments/status.svg)](${link})`,
    );
    expect((await fetch(link)).status).toBe(200);
    await docScreenshots(page, 'status-page-editor', kind);
    expect((await fetch(`${daemon.url}/api/v1/public/badges/default/payments/status.svg`)).status).toBe(200);

    await page.getByRole('link', { name: 'Status pages' }).first().click();
    await page.getByRole('link', { name: '/status/default/shop-status' }).waitFor();
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await fitsWidth(page)).toBe(true);
    expect(browser.problems).toEqual([]);
    // A long walk through the editor: on a busy machine it needs more than the default 30 s.
  }, 60_000);

  it('posts, edits and resolves updates in the editor, and counts the subscribers', async () => {
    const token = await daemon.adminToken();
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/status-pages/shop-status');
    const updates = page.locator('section', { has: page.getByRole('heading', { name: 'Updates', level: 2 }) });
    await updates.getByText('No updates yet.').waitFor();
    await updates.getByText('0 confirmed addresses receive the updates by e-mail.').waitFor();
    await updates.getByLabel('Title').first().fill('Payments are slow');
    await updates.getByLabel('State').first().selectOption('identified');
    await updates.getByLabel('Message').first().fill('A **fix** is on its way.');
    await updates.getByLabel('Payments').first().check();
    await updates.getByRole('button', { name: 'Post update' }).click();
    await updates.getByText('A **fix** is on its way.').waitFor();
    const posted = (await daemon.request('GET', '/orgs/default/status-pages/shop-status/updates', { token })).body.items;
    expect(posted).toMatchObject([
      { title: 'Payments are slow', state: 'identified', body: 'A **fix** is on its way.', checks: ['payments'], resolvedAt: null },
    ]);

    await updates.getByRole('button', { name: 'Edit Payments are slow' }).click();
    await updates.getByLabel('Title').nth(1).fill('Payments were slow');
    await updates.getByRole('button', { name: 'Save update' }).click();
    await updates.getByText('Payments were slow').waitFor();
    await updates.getByRole('button', { name: 'Resolve' }).click();
    await updates.getByText(/resolved/).waitFor();
    const resolved = (await daemon.request('GET', `/orgs/default/status-pages/shop-status/updates/${posted[0].uid}`, { token })).body;
    expect(resolved).toMatchObject({ title: 'Payments were slow', state: 'resolved' });
    expect(resolved.resolvedAt).not.toBeNull();
    expect(browser.problems).toEqual([]);
  }, 60_000);
});
