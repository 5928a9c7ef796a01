import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_KINDS } from '../../daemon/audit/audit-kinds.js';
import { browserSkipReason, fitsWidth, launchBrowser, type TestBrowser } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { addMember } from '../support/members.js';
import { signInAsAdmin, submitSignIn, waitSignedIn } from './flows.js';

const skip = browserSkipReason();

describe.skipIf(skip).each(DATABASE_KINDS)('dashboard members and roles [%s]', (kind) => {
  let daemon: TestDaemon;
  let browser: TestBrowser;
  let token: string;
  const viewer = `viewer-${kind}@example.com`;

  beforeAll(async () => {
    [daemon, browser] = await Promise.all([startTestDaemon(kind), launchBrowser()]);
    token = await daemon.adminToken();
    const sample = await daemon.request('GET', '/check-types/http/sample', { token });
    expect((await daemon.request('POST', '/orgs/default/checks', { token, body: sample.body })).status).toBe(201);
    expect((await daemon.request('POST', '/orgs/default/incidents', { token, body: { title: 'API down', checkSlug: 'api-health' } })).status).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it('invites by e-mail with a role; the invited person accepts through the link after signing in', async () => {
    const admin = await browser.newPage();
    await signInAsAdmin(admin, daemon, '/orgs/default/members');
    await admin.getByRole('heading', { name: 'Invitations' }).waitFor();
    await admin.getByLabel('E-mail', { exact: true }).fill(viewer);
    await admin.getByLabel('Role', { exact: true }).selectOption('viewer');
    await admin.getByRole('button', { name: 'Invite' }).click();
    const link = await admin.getByLabel('Invitation link', { exact: true }).inputValue();
    // The link names the configured base URL; its token rides in the fragment.
    const fragment = new URL(link).hash;
    expect(fragment).toMatch(/^#token=/);

    await daemon.register(viewer);
    const page = await browser.newPage();
    await page.goto(`${daemon.url}/d/invitations/accept${fragment}`);
    await page.getByRole('heading', { name: 'Invitation' }).waitFor();
    expect(page.url()).toBe(`${daemon.url}/d/invitations/accept`);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await submitSignIn(page, viewer, 'password-123');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByText('You joined default as viewer.').waitFor();
    await page.getByRole('link', { name: 'Open default' }).click();
    await page.getByRole('heading', { name: 'Checks' }).waitFor();
  });

  it('shows a viewer read-only pages: no write buttons, and a refused call as a message', async () => {
    const page = await browser.newPage();
    await page.goto(`${daemon.url}/orgs/default/checks`);
    await submitSignIn(page, viewer, 'password-123');
    await page.locator('tr[data-slug="api-health"]').waitFor();
    expect(await page.getByRole('link', { name: 'New check' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Import' }).count()).toBe(0);

    await page.getByRole('link', { name: 'API health' }).click();
    await page.getByRole('heading', { name: 'API health' }).waitFor();
    expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);

    await page.getByRole('link', { name: 'Members' }).click();
    await page.locator(`tr[data-member="${viewer}"]`).waitFor();
    expect(await page.getByRole('combobox', { name: /^Role of/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Invitations' }).count()).toBe(0);

    await page.getByRole('link', { name: 'Incidents' }).click();
    await page.locator('[data-incident="API down"]').waitFor();
    expect(await page.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Resolve' }).count()).toBe(0);
    expect(await page.getByText('Open an incident').count()).toBe(0);

    // Deep links to write pages explain instead of offering forms.
    await page.goto(`${daemon.url}/orgs/default/checks/-/new`);
    await page.getByText('can read checks but not change them').waitFor();
    await page.goto(`${daemon.url}/orgs/default/checks/-/import`);
    await page.getByText('can read checks but not import them').waitFor();

    // An admin-only page answers 403, shown as a message inside the normal frame.
    await page.goto(`${daemon.url}/orgs/default/audit-log`);
    await page.getByRole('alert').filter({ hasText: 'Not allowed' }).waitFor();
    await waitSignedIn(page);
    expect(await fitsWidth(page)).toBe(true);
  });

  it('lets an admin change a role and remove a member; the audit log records both', async () => {
    const other = await addMember(daemon, `leaver-${kind}@example.com`, 'user');
    expect(other.uid).toBeTruthy();
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/members');
    await page.getByRole('combobox', { name: `Role of ${viewer}` }).selectOption('user');
    await page.getByText(`${viewer} is now user.`).waitFor();
    const members = await daemon.request('GET', '/orgs/default/members', { token });
    expect(members.body.items.find((m: { email: string }) => m.email === viewer).role).toBe('user');

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Remove leaver-${kind}@example.com` }).click();
    await page.getByText(`leaver-${kind}@example.com was removed.`).waitFor();

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.locator('tr[data-kind="member.role_changed"]').waitFor();
    await page.locator('tr[data-kind="member.removed"]').waitFor();
    expect(await page.getByLabel('Kind', { exact: true }).locator('option').allTextContents()).toEqual(['All kinds', ...AUDIT_KINDS]);
    await page.getByLabel('Kind', { exact: true }).selectOption('member.removed');
    await page.waitForURL(/\?kind=member\.removed$/);
    await page.locator('tr[data-kind="member.role_changed"]').waitFor({ state: 'detached' });
    expect(await page.locator('tbody tr').count()).toBe(1);
  });

  it('takes a request to join from the account page to an admin who approves it', async () => {
    const asker = `asker-${kind}@example.com`;
    await daemon.register(asker);
    const page = await browser.newPage();
    await page.goto(`${daemon.url}/d/account`);
    await submitSignIn(page, asker, 'password-123');
    await page.getByLabel('Organization slug', { exact: true }).fill('default');
    await page.getByLabel('Message to the admins (optional)', { exact: true }).fill('I run the on-call rota');
    await page.getByRole('button', { name: 'Ask to join' }).click();
    await page.getByText('If default exists, its admins now see your request.').waitFor();

    const admin = await browser.newPage();
    await signInAsAdmin(admin, daemon, '/orgs/default/members');
    await admin.getByText('I run the on-call rota').waitFor();
    await admin.getByRole('button', { name: 'Approve' }).click();
    await admin.locator(`tr[data-member="${asker}"]`).waitFor();
    await admin.getByText('No pending requests.').waitFor();
  });

  it('lets a user open, acknowledge and resolve incidents', async () => {
    const page = await browser.newPage();
    await signInAsAdmin(page, daemon, '/orgs/default/incidents');
    await page.getByText('Open an incident').click();
    await page.getByLabel('Title', { exact: true }).fill('Slow pages');
    await page.getByLabel('Check slug (optional)', { exact: true }).fill('no-such-check');
    await page.getByRole('button', { name: 'Open incident' }).click();
    await page.locator('#incident-check-error').waitFor();
    await page.getByLabel('Check slug (optional)', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Open incident' }).click();
    const incident = page.locator('[data-incident="Slow pages"]');
    await incident.waitFor();
    await incident.getByRole('button', { name: 'Acknowledge' }).click();
    await page.locator('[data-incident="Slow pages"][data-status="acknowledged"]').waitFor();
    await incident.getByRole('button', { name: 'Resolve' }).click();
    await page.locator('[data-incident="Slow pages"][data-status="resolved"]').waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('open');
    await page.waitForURL(/\?status=open$/);
    await page.locator('[data-incident="Slow pages"]').waitFor({ state: 'detached' });
    await page.locator('[data-incident="API down"]').waitFor();
  });

  it('showed no console errors on any page', () => {
    expect(browser.problems).toEqual([]);
  });
});
