import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, docScreenshots, launchBrowser, type TestBrowser } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { addMember } from '../support/members.js';
import { signInAsAdmin, submitSignIn } from './flows.js';

const skip = browserSkipReason();
const VALUE = 'dashboard-secret-4c7e91ab';

describe.skipIf(skip).each(DATABASE_KINDS)('dashboard secrets [%s]', (kind) => {
  let daemon: TestDaemon;
  let browser: TestBrowser;

  beforeAll(async () => {
    [daemon, browser] = await Promise.all([startTestDaemon(kind), launchBrowser()]);
    const token = await daemon.adminToken();
    const check = { name: 'Orders DB', type: 'postgres', target: 'db.example.com:5432', config: { password: '{{secrets.ORDERS_DB_PASSWORD}}' } };
    expect((await daemon.request('POST', '/orgs/default/checks', { token, body: check })).status).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it('lets an admin set a secret (write-only), see which checks use it, and delete it', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/checks');
    await page.getByRole('link', { name: 'Secrets' }).click();
    await page.getByRole('heading', { name: 'Secrets', level: 1 }).waitFor();
    await page.getByText('No secrets yet.').waitFor();

    await page.getByLabel('Name', { exact: true }).fill('orders_db_password');
    await page.getByLabel('Value', { exact: true }).fill(VALUE);
    await page.getByRole('button', { name: 'Save secret' }).click();
    await page.getByText('Set secret ORDERS_DB_PASSWORD.').waitFor();
    const row = page.locator('tr', { hasText: 'ORDERS_DB_PASSWORD' });
    await row.getByRole('link', { name: 'orders-db' }).waitFor();
    await docScreenshots(page, 'secrets', kind);
    expect(await page.getByLabel('Value', { exact: true }).inputValue()).toBe('');
    expect(await page.content()).not.toContain(VALUE);

    await page.getByLabel('Name', { exact: true }).fill('1BAD');
    await page.getByLabel('Value', { exact: true }).fill('x');
    await page.getByRole('button', { name: 'Save secret' }).click();
    await page
      .getByText(/upper-case letter/)
      .first()
      .waitFor();

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete ORDERS_DB_PASSWORD' }).click();
    await page.getByText('Deleted secret ORDERS_DB_PASSWORD.').waitFor();
    await page.getByText('No secrets yet.').waitFor();
  });

  it('offers the page to admins only', async () => {
    await addMember(daemon, `secrets-user-${kind}@example.com`, 'user');
    const page = await browser.newPage();
    await page.goto(`${daemon.url}/orgs/default/checks`);
    await submitSignIn(page, `secrets-user-${kind}@example.com`, 'password-123');
    await page.getByRole('heading', { name: 'Checks' }).waitFor();
    expect(await page.getByRole('link', { name: 'Secrets' }).count()).toBe(0);
  });
});
