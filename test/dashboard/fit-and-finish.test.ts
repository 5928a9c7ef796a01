import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, fitsWidth, launchBrowser, type TestBrowser } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { signInAsAdmin } from './flows.js';

const skip = browserSkipReason();
const LONG_TARGET = 'https://status.internal-services.example.com/api/v2/health/deep?include=database,queue,cache&format=json';

describe.skipIf(skip).each(DATABASE_KINDS)('dashboard fit and finish [%s]', (kind) => {
  let daemon: TestDaemon;
  let browser: TestBrowser;
  let token: string;

  beforeAll(async () => {
    [daemon, browser] = await Promise.all([startTestDaemon(kind), launchBrowser()]);
    token = await daemon.adminToken();
    const created = await daemon.request('POST', '/orgs/default/checks', { token, body: { name: 'Deep health', type: 'http', target: LONG_TARGET } });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it('wraps a long target at its separators on a 375 px screen, not letter by letter', async () => {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 375, height: 800 });
    // The list leaves targets out on a phone; the check's page shows it in full.
    await signInAsAdmin(page, daemon, '/orgs/default/checks/deep-health');
    const cell = page.locator('code', { hasText: 'status.internal' });
    await cell.waitFor();
    const box = await cell.boundingBox();
    // Letter by letter, the column shrinks to about one character (under 20 px).
    expect(box!.width).toBeGreaterThan(90);
    // Every line break falls after a separator: each rendered line ends with one of / . ? & = , or the text's end.
    const lines = await cell.evaluate((element) => {
      const range = document.createRange();
      const text = element.textContent ?? '';
      const out: string[] = [];
      let current = '';
      let lastTop: number | undefined;
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        for (let i = 0; i < (n.textContent ?? '').length; i += 1) {
          range.setStart(n, i);
          range.setEnd(n, i + 1);
          const top = Math.round(range.getBoundingClientRect().top);
          if (lastTop !== undefined && top > lastTop + 2) {
            out.push(current);
            current = '';
          }
          lastTop = top;
          current += n.textContent![i];
        }
      }
      out.push(current);
      return { out, text };
    });
    expect(lines.out.join('')).toBe(LONG_TARGET);
    expect(lines.out.length).toBeGreaterThan(1);
    for (const line of lines.out.slice(0, -1)) expect(line).toMatch(/[/.?&=#:@-]$/);
    expect(await fitsWidth(page)).toBe(true);
  });

  it("separates the organization's pages from the server settings in the navigation", async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/checks');
    const organization = page.getByRole('list', { name: 'Organization' });
    const server = page.getByRole('list', { name: 'Server' });
    await organization.getByRole('link', { name: 'Checks' }).waitFor();
    expect(await server.getByRole('link').allTextContents()).toEqual(['Password hashing', 'Authentication', 'Users']);
    expect(await organization.getByRole('link', { name: 'Password hashing' }).count()).toBe(0);
  });

  it('folds the navigation behind a Menu button on a 375 px phone, and shows it open at 1280 px', async () => {
    const page = await browser.newPage({ width: 375, height: 800 });
    await signInAsAdmin(page, daemon, '/orgs/default/checks');
    await page.getByRole('heading', { name: 'Checks', exact: true }).waitFor();
    const menu = page.getByRole('button', { name: 'Menu' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    // The content starts near the top, not under 435 px of links.
    const contentTop = await page.locator('#main').evaluate((main) => main.getBoundingClientRect().top);
    expect(contentTop).toBeLessThan(120);
    expect(await fitsWidth(page)).toBe(true);

    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Incidents' }).click();
    await page.waitForURL(/\/orgs\/default\/incidents$/);
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'hidden' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');

    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    expect(await menu.isVisible()).toBe(false);
  });

  it('shows the stored organization settings in the form as it first appears', async () => {
    const patched = await daemon.request('PATCH', '/orgs/default', { token, body: { memberLimit: 7, registrationEmailPattern: '@example\\.com$' } });
    expect(patched.status).toBe(200);
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/settings');
    const limit = page.getByLabel('Member limit (optional)', { exact: true });
    await limit.waitFor();
    expect(await limit.inputValue()).toBe('7');
    expect(await page.getByLabel('Sign-up e-mail pattern (optional)', { exact: true }).inputValue()).toBe('@example\\.com$');
  });
});
