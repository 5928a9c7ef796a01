import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, fitsWidth, launchBrowser, saveScreenshot, type TestBrowser } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_PASSWORD, startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { fieldError, signInAsAdmin, submitSignIn, waitSignedIn } from './flows.js';

const skip = browserSkipReason();

describe.skipIf(skip).each(DATABASE_KINDS)('dashboard sign-in and server settings [%s]', (kind) => {
  let daemon: TestDaemon;
  let browser: TestBrowser;

  beforeAll(async () => {
    [daemon, browser] = await Promise.all([startTestDaemon(kind), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it('signs the built-in admin in, forces the password change, then continues to the page asked for', async () => {
    const page = await browser.newPage();
    await page.goto(`${daemon.url}/d/account`);
    await page.waitForURL(/\/d\/sign-in\?returnTo=%2Fd%2Faccount/);
    await page.getByRole('heading', { name: 'Sign in to svc' }).waitFor();
    await saveScreenshot(page, `sign-in-${kind}`);

    await submitSignIn(page, 'admin@svc.local', 'wrong password');
    await page.getByRole('alert').filter({ hasText: 'Sign-in failed' }).waitFor();

    await submitSignIn(page, 'admin@svc.local', 'svc-admin');
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/d/change-password');
    // The password just typed is not asked for again: only the new one, twice.
    await page.getByLabel('New password', { exact: true }).waitFor();
    expect(await page.getByLabel('Current password', { exact: true }).count()).toBe(0);
    await page.getByLabel('New password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByLabel('Repeat the new password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/d/account');
    // The session token never appears in an address.
    expect(page.url()).not.toMatch(/token|accessToken/i);

    // A reload keeps the tab signed in and on its page (deep link).
    await page.reload();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    await waitSignedIn(page);

    // The built-in password no longer works; the new one does, in a fresh tab.
    const other = await browser.newPage();
    await other.goto(`${daemon.url}/d/sign-in`);
    await submitSignIn(other, 'admin@svc.local', 'svc-admin');
    await other.getByRole('alert').filter({ hasText: 'Sign-in failed' }).waitFor();
    await submitSignIn(other, 'admin@svc.local', ADMIN_PASSWORD);
    await waitSignedIn(other);
  });

  it('saves the hashing settings: an invalid value is shown next to its field, a valid one is stored', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/server/hashing');
    await page.getByRole('heading', { name: 'Password hashing' }).waitFor();
    await page.getByText('Changes take effect after the server restarts.').waitFor();
    // Nothing is stored yet: every field is blank and shows what it inherits.
    expect(await page.getByLabel('Memory (KiB)', { exact: true }).inputValue()).toBe('');
    expect(await page.getByLabel('Memory (KiB)', { exact: true }).getAttribute('placeholder')).toBe('inherits 8192');

    await page.getByLabel('Memory (KiB)', { exact: true }).fill('100');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect(await fieldError(page, 'argon2-memory')).toContain('at least 8192');
    expect(await page.getByLabel('Memory (KiB)', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    await page.locator('[data-preset="lighter"]').click();
    expect(await page.getByLabel('Memory (KiB)', { exact: true }).inputValue()).toBe('19456');
    expect(await page.getByLabel('Algorithm', { exact: true }).inputValue()).toBe('argon2id');
    await page.getByLabel('Cost (10 to 31)', { exact: true }).fill('13');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved. The new settings apply after the next restart.').waitFor();
    await page.locator('.pending-restart').waitFor();
    expect(await page.locator('#argon2-memory-error').count()).toBe(0);
    await saveScreenshot(page, `hashing-${kind}`);

    const stored = await daemon.request('GET', '/system/hashing', { token: await daemon.login('admin@svc.local', ADMIN_PASSWORD) });
    expect(stored.body.overrides).toEqual({ algorithm: 'argon2id', argon2: { memory: 19456, time: 2, threads: 1 }, bcrypt: { cost: 13 } });
    expect(stored.body.pendingRestart).toBe(true);

    // After a reload only the stored overrides are filled in.
    await page.reload();
    await page.getByLabel('Memory (KiB)', { exact: true }).waitFor();
    expect(await page.getByLabel('Memory (KiB)', { exact: true }).inputValue()).toBe('19456');
    expect(await page.getByLabel('Key length (bytes)', { exact: true }).inputValue()).toBe('');
  });

  it('is usable 375 px wide', async () => {
    const page = await browser.newPage({ width: 375 });
    await page.goto(`${daemon.url}/d/sign-in`);
    await page.getByRole('heading', { name: 'Sign in to svc' }).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await submitSignIn(page, 'admin@svc.local', ADMIN_PASSWORD);
    await waitSignedIn(page);
    await page.goto(`${daemon.url}/orgs/default/server/hashing`);
    await page.getByLabel('Memory (KiB)', { exact: true }).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await page.goto(`${daemon.url}/d/account`);
    await page.getByRole('heading', { name: 'Personal access tokens' }).waitFor();
    expect(await fitsWidth(page)).toBe(true);
  });

  it('showed no console errors on any page', () => {
    expect(browser.problems).toEqual([]);
  });
});

describe.skipIf(skip).each(DATABASE_KINDS)('dashboard first sign-in without a page asked for [%s]', (kind) => {
  let daemon: TestDaemon;
  let browser: TestBrowser;

  beforeAll(async () => {
    [daemon, browser] = await Promise.all([startTestDaemon(kind), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it('asks only for the new password, twice, then lands on the Overview', async () => {
    const page = await browser.newPage();
    await page.goto(`${daemon.url}/d/sign-in`);
    await submitSignIn(page, 'admin@svc.local', 'svc-admin');
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(await page.getByLabel('Current password', { exact: true }).count()).toBe(0);
    await page.getByLabel('New password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByLabel('Repeat the new password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.waitForURL(/\/orgs\/default\/overview$/);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(browser.problems).toEqual([]);
  });
});
