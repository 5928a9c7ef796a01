import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchBrowser, type TestBrowser } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { fieldError, submitSignIn, waitSignedIn } from './flows.js';

const skip = browserSkipReason();

describe.skipIf(skip).each(DATABASE_KINDS)('dashboard registration, organizations and password reset [%s]', (kind) => {
  let daemon: TestDaemon;
  let browser: TestBrowser;
  const email = `reg-${kind}@example.com`;

  beforeAll(async () => {
    [daemon, browser] = await Promise.all([startTestDaemon(kind), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it('registers through the link on the sign-in page, then creates an organization as its owner', async () => {
    const page = await browser.newPage();
    await page.goto(`${daemon.url}/d/sign-in`);
    await page.getByRole('link', { name: 'Create one' }).click();
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    // The browser's own check (minlength) stops this one; the server's rules are the same.
    expect(await page.getByLabel('Password', { exact: true }).evaluate((input: HTMLInputElement) => input.validity.tooShort)).toBe(true);
    await page.getByLabel('Password', { exact: true }).fill('password-123');
    await page.getByRole('button', { name: 'Create account' }).click();
    await waitSignedIn(page);
    await page.getByRole('heading', { name: 'Account' }).waitFor();

    await page.getByLabel('Organization name', { exact: true }).fill('Ops team');
    await page.getByLabel('Slug', { exact: true }).fill('ops');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.waitForURL(/\/orgs\/ops\/checks$/);
    await page.getByRole('link', { name: 'New check' }).waitFor();

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByText('Not linked to a workspace.').waitFor();
    await page.getByLabel('Member limit (optional)', { exact: true }).fill('lots');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await fieldError(page, 'org-limit');
    await page.getByLabel('Member limit (optional)', { exact: true }).fill('5');
    await page.getByLabel('Name', { exact: true }).fill('Operations');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    await page.locator('#org-select').filter({ hasText: 'Operations' }).waitFor();
  });

  it('signs in with the keyboard alone', async () => {
    const page = await browser.newPage();
    await page.goto(`${daemon.url}/d/sign-in`);
    await page.getByRole('heading', { name: 'Sign in to svc' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('email');
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('password');
    await page.keyboard.type('password-123');
    await page.keyboard.press('Enter');
    await waitSignedIn(page);
    // After a client-side navigation focus moves to the new page's heading, as a page load would.
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Overview');
    // The skip link is the first stop on every signed-in page.
    await page.reload();
    await waitSignedIn(page);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
  });

  it('sets a new password through a reset link; the token leaves the address bar', async () => {
    const admin = await daemon.adminToken();
    const users = await daemon.request('GET', `/system/users?email=${encodeURIComponent(email)}`, { token: admin });
    const issued = await daemon.request('POST', `/system/users/${users.body.items[0].uid}/password-reset`, { token: admin });
    expect(issued.status).toBe(201);
    const link = new URL(issued.body.url);
    const page = await browser.newPage();
    await page.goto(`${daemon.url}${link.pathname}${link.hash}`);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(page.url()).toBe(`${daemon.url}/d/reset`);
    await page.getByLabel('New password', { exact: true }).fill('a-new-password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password has been changed').waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await submitSignIn(page, email, 'a-new-password');
    await waitSignedIn(page);
  });

  it('showed no console errors on any page', () => {
    expect(browser.problems).toEqual([]);
  });
});
