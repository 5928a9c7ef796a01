import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, fitsWidth, launchBrowser, type TestBrowser } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { addMember } from '../support/members.js';
import { fieldError, signInAsAdmin, signInAt, waitSignedIn } from './flows.js';

const skip = browserSkipReason();

describe.skipIf(skip).each(DATABASE_KINDS)('dashboard account and server users [%s]', (kind) => {
  let daemon: TestDaemon;
  let browser: TestBrowser;
  let email = `ann-${kind}@example.com`;
  const password = 'password-123';

  beforeAll(async () => {
    [daemon, browser] = await Promise.all([startTestDaemon(kind), launchBrowser()]);
    await daemon.adminToken();
    await addMember(daemon, email, 'viewer');
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it('changes the name, and mints a token shown once that a viewer may hold, then revokes it', async () => {
    const page = await browser.newPage({ width: 375 });
    await signInAt(page, daemon, '/d/account', email, password);
    await page.getByLabel('Display name', { exact: true }).fill('Ann Example');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Name saved.').waitFor();
    await page.locator('.whoami').filter({ hasText: 'Ann Example' }).waitFor();

    await page.getByLabel('Token name', { exact: true }).fill('ci reader');
    await page.getByLabel('mcp: the MCP endpoint, every tool your role allows').uncheck();
    await page.getByLabel('api: the REST API, everything your role allows').uncheck();
    await page.getByLabel('api:read: the REST API, reading only').check();
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = await page.getByLabel('Token', { exact: true }).inputValue();
    expect(secret.length).toBeGreaterThan(20);
    expect(await fitsWidth(page)).toBe(true);
    const read = await daemon.request('GET', '/orgs/default/checks', { token: secret });
    expect(read.status).toBe(200);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke ci reader' }).click();
    await page.getByText('No tokens yet.').waitFor();
    expect((await daemon.request('GET', '/orgs/default/checks', { token: secret })).status).toBe(401);
  });

  it('saves notification settings per organization', async () => {
    const page = await browser.newPage();
    await signInAt(page, daemon, '/d/account', email, password);
    await page.getByLabel('A check comes back up', { exact: true }).uncheck();
    await page.getByLabel('Quiet hours (hold notifications back daily)', { exact: true }).check();
    await page.getByLabel('Time zone', { exact: true }).fill('Mars/Olympus');
    await page.getByRole('button', { name: 'Save notifications' }).click();
    expect(await fieldError(page, 'quiet-zone')).toContain('IANA');
    await page.getByLabel('Time zone', { exact: true }).fill('Europe/Berlin');
    await page.getByRole('button', { name: 'Save notifications' }).click();
    await page.getByText('Notification settings saved.').waitFor();
    const token = await daemon.login(email, password);
    const stored = await daemon.request('GET', '/auth/me/notification-settings?org=default', { token });
    expect(stored.body.events).not.toContain('check.up');
    expect(stored.body.quietHours).toEqual({ start: '22:00', end: '07:00', timeZone: 'Europe/Berlin' });
  });

  it('ends another session from the sessions list; that tab is sent back to sign-in', async () => {
    const first = await browser.newPage();
    await signInAt(first, daemon, '/orgs/default/checks', email, password);
    const second = await browser.newPage();
    await signInAt(second, daemon, '/d/account', email, password);
    const others = second.locator('section[aria-labelledby="sessions-title"] tbody tr:not([data-current])');
    await others.first().waitFor();
    const before = await others.count();
    await others.first().getByRole('button', { name: 'End' }).click();
    await second.waitForFunction(
      (n) => document.querySelectorAll('section[aria-labelledby="sessions-title"] tbody tr:not([data-current])').length === n - 1,
      before,
    );
    // Ending sessions in bulk the simple way: end every other one, including the first tab's.
    while ((await others.count()) > 0) {
      const count = await others.count();
      await others.first().getByRole('button', { name: 'End' }).click();
      await second.waitForFunction(
        (n) => document.querySelectorAll('section[aria-labelledby="sessions-title"] tbody tr:not([data-current])').length === n - 1,
        count,
      );
    }
    await first.getByRole('link', { name: 'Members' }).click();
    await first.waitForURL(/\/d\/sign-in\?.*expired=1/);
    await first.getByText('Your session has ended.').waitFor();
  });

  it('changes the e-mail with the current password', async () => {
    const page = await browser.newPage();
    await signInAt(page, daemon, '/d/account', email, password);
    await page.getByLabel('New e-mail address', { exact: true }).fill(`ann2-${kind}@example.com`);
    await page.getByLabel('Current password', { exact: true }).first().fill('wrong password');
    await page.getByRole('button', { name: 'Change e-mail address' }).click();
    await page.getByRole('alert').filter({ hasText: 'The current password is wrong.' }).waitFor();
    await waitSignedIn(page);
    await page.locator('#email-current-password').fill(password);
    await page.getByRole('button', { name: 'Change e-mail address' }).click();
    await page.getByText('E-mail address changed.').waitFor();
    email = `ann2-${kind}@example.com`;
    expect(await page.getByTestId('account-email').textContent()).toBe(email);
  });

  it('lets a super admin change any address without a password and issue a reset link', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/server/users');
    await page.getByLabel('E-mail address', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Find' }).click();
    const card = page.locator(`[data-user="${email}"]`);
    await card.waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-user]').length === 1);
    await card.getByRole('button', { name: 'Password reset link' }).click();
    expect(await page.getByLabel('Reset link', { exact: true }).inputValue()).toContain('/d/reset#token=');
    await card.getByRole('button', { name: 'Change e-mail' }).click();
    await card.getByLabel('New e-mail address', { exact: true }).fill(`ann3-${kind}@example.com`);
    await card.getByRole('button', { name: 'Save address' }).click();
    await page.getByText(`The address is now ann3-${kind}@example.com`).waitFor();
    expect((await daemon.request('POST', '/auth/login', { body: { email: `ann3-${kind}@example.com`, password } })).status).toBe(200);
  });

  it('stores the enterprise tenant, refusing an invalid one next to the field', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/server/authentication');
    await page.getByText('Only e-mail and password: no provider is configured.').waitFor();
    await page.getByLabel('Tenant', { exact: true }).fill('not a tenant!');
    await page.getByRole('button', { name: 'Save' }).click();
    await fieldError(page, 'tenant-id');
    await page.getByLabel('Tenant', { exact: true }).fill('organizations');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('A restart is pending.').waitFor();
  });

  it('showed no console errors on any page', () => {
    expect(browser.problems).toEqual([]);
  });
});
