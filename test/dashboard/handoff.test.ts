import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueHandoffCode } from '../../daemon/auth/handoff.js';
import { browserSkipReason, launchBrowser, type TestBrowser } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { freePort } from '../support/oauth/browser.js';
import { startFakeProvider, type FakeProvider } from '../support/oauth/fake-providers.js';
import { waitSignedIn } from './flows.js';

const skip = browserSkipReason();

describe.skipIf(skip).each(DATABASE_KINDS)('dashboard sign-in hand-off [%s]', (kind) => {
  let daemon: TestDaemon;
  let provider: FakeProvider;
  let browser: TestBrowser;

  beforeAll(async () => {
    // The provider sends the browser back to the base URL, so the daemon must listen where it says.
    const port = await freePort();
    provider = await startFakeProvider('code_host_a', { clientId: 'dash-client', clientSecret: 'dash-client-secret' });
    [daemon, browser] = await Promise.all([
      startTestDaemon(kind, { env: { SVC_LISTEN: `127.0.0.1:${port}`, SVC_BASE_URL: `http://127.0.0.1:${port}`, ...provider.env() } }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    await provider?.close();
  });

  it('signs in through a provider button and continues to the page the sign-in started from; a reused code shows a message', async () => {
    provider.next.user = { profile: { id: 4242, login: 'octo' }, emails: [{ email: `octo-${kind}@example.com`, primary: true, verified: true }] };
    const page = await browser.newPage();
    const completions: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.url().includes('/d/auth/complete')) completions.push(request.url());
    });
    await page.goto(`${daemon.url}/d/account`);
    await page.waitForURL(/\/d\/sign-in\?returnTo=/);
    await page.locator('[data-provider="code_host_a"]').click();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    await waitSignedIn(page);
    expect(new URL(page.url()).pathname).toBe('/d/account');
    await page.getByText(`octo-${kind}@example.com`).first().waitFor();

    // The browser came back with a code, which left the address bar at once.
    expect(completions).toHaveLength(1);
    const code = new URL(completions[0]).searchParams.get('code');
    expect(code).toBeTruthy();
    expect(page.url()).not.toContain(code!);

    // The same code a second time: a clear message and the way back to sign-in.
    const again = await browser.newPage();
    await again.goto(completions[0]);
    await again.getByRole('heading', { name: 'Sign-in did not complete' }).waitFor();
    await again.getByText('already been used or has expired').waitFor();
    expect(again.url()).toBe(`${daemon.url}/d/auth/complete`);
    await again.getByRole('link', { name: 'Back to sign-in' }).click();
    await again.getByRole('heading', { name: 'Sign in to svc' }).waitFor();
  });

  it('exchanges a fresh code minted by the server and continues to its returnTo', async () => {
    const account = await daemon.register(`fresh-${kind}@example.com`);
    const code = await issueHandoffCode(daemon.deps, { uid: account.uid }, 'code_host_a', '/d/account');
    const page = await browser.newPage();
    await page.goto(`${daemon.url}/d/auth/complete?code=${encodeURIComponent(code)}`);
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    await page.getByText(`fresh-${kind}@example.com`).first().waitFor();
    expect(page.url()).toBe(`${daemon.url}/d/account`);
    // The hand-off page was replaced in history, so Back never lands on it (nor on its code).
    await page.goBack();
    expect(page.url()).toBe('about:blank');
  });

  it('explains a provider failure', async () => {
    const page = await browser.newPage();
    await page.goto(`${daemon.url}/d/auth/complete?error=access_denied`);
    await page.getByText('The sign-in was cancelled at the identity provider.').waitFor();
    await page.getByRole('link', { name: 'Back to sign-in' }).waitFor();
  });

  it('showed no console errors on any page', () => {
    expect(browser.problems).toEqual([]);
  });
});
