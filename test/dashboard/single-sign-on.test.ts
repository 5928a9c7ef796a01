import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, launchBrowser, type TestBrowser } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { TestIdentityProvider } from '../support/saml/identity-provider.js';
import { signInAsAdmin } from './flows.js';

const skip = browserSkipReason();

describe.skipIf(skip).each(DATABASE_KINDS)('dashboard single sign-on settings [%s]', (kind) => {
  let daemon: TestDaemon;
  let browser: TestBrowser;
  let idp: TestIdentityProvider;

  beforeAll(async () => {
    [daemon, browser, idp] = await Promise.all([startTestDaemon(kind), launchBrowser(), TestIdentityProvider.start()]);
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    await idp?.stop();
  });

  it('an admin connects the SAML identity provider, requires SAML and maps groups to roles', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/settings');
    await page.getByRole('heading', { name: 'Single sign-on' }).waitFor();
    await page.getByText('No identity provider is connected').waitFor();

    await page.getByLabel('Identity provider metadata (XML or https address)').fill('<not-metadata/>');
    await page.getByRole('button', { name: 'Save identity provider' }).click();
    await page.getByRole('alert').filter({ hasText: 'metadata' }).first().waitFor();

    await page.getByLabel('Identity provider metadata (XML or https address)').fill(idp.metadata());
    await page.getByLabel(/Require SAML/).check();
    await page.getByRole('button', { name: 'Save identity provider' }).click();
    await page.getByText('Identity provider saved.').waitFor();
    await page.getByText(idp.entityId).waitFor();

    await page.getByLabel(/One group per line/).fill('sre = admin\nstaff = owner');
    await page.getByRole('button', { name: 'Save group mapping' }).click();
    await page.getByText('line 2: write').waitFor();
    await page.getByLabel(/One group per line/).fill('sre = admin\nstaff = viewer');
    await page.getByRole('button', { name: 'Save group mapping' }).click();
    await page.getByText('Group mapping saved.').waitFor();

    const token = await daemon.adminToken();
    expect((await daemon.request('GET', '/orgs/default/saml', { token })).body).toMatchObject({ idpEntityId: idp.entityId, required: true });
    expect((await daemon.request('GET', '/orgs/default/group-roles', { token })).body).toEqual({ groupRoles: { sre: 'admin', staff: 'viewer' } });

    await page.reload();
    await page.getByText(idp.entityId).waitFor();
    expect(await page.getByLabel(/One group per line/).inputValue()).toBe('sre = admin\nstaff = viewer');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await page.getByText('No identity provider is connected').waitFor();
    expect((await daemon.request('GET', '/orgs/default/saml', { token })).status).toBe(404);
  });
});
