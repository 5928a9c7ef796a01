import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../daemon/clock.js';
import { browserSkipReason, launchBrowser, type TestBrowser } from '../support/browser.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { submitSignIn, waitSignedIn } from './flows.js';

const skip = browserSkipReason();

describe.skipIf(skip).each(DATABASE_KINDS)('dashboard two-factor sign-in [%s]', (kind) => {
  let daemon: TestDaemon;
  let browser: TestBrowser;
  // The daemon checks codes at this clock; the test computes them at the same instant.
  const clock = manualClock(new Date());
  const email = `totp-${kind}@example.com`;
  const password = 'password-123';
  let totp: OTPAuth.TOTP;
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    [daemon, browser] = await Promise.all([startTestDaemon(kind, { clock }), launchBrowser()]);
    await daemon.register(email, password);
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  const code = () => totp.generate({ timestamp: clock.now().getTime() });

  it('enrols from the account page with the QR code and a computed code, and shows the recovery codes once', async () => {
    const page = await browser.newPage();
    await page.goto(`${daemon.url}/d/account`);
    await submitSignIn(page, email, password);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const qr = page.getByRole('img', { name: 'QR code of the two-factor secret' });
    await qr.waitFor();
    // The QR code is a data: image; the page's policy allows it, so it really renders.
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });

    await page.getByLabel('Code from the app', { exact: true }).fill('000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('alert').filter({ hasText: 'Not confirmed' }).waitFor();
    // A wrong code is a wrong code, not an ended session.
    await waitSignedIn(page);

    await page.getByLabel('Code from the app', { exact: true }).fill(code());
    await page.getByRole('button', { name: 'Turn on' }).click();
    const list = page.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    recoveryCodes = (await list.locator('li').allTextContents()).map((c) => c.trim());
    expect(recoveryCodes).toHaveLength(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByRole('button', { name: 'Turn off two-factor sign-in' }).waitFor();
    const login = await daemon.request('POST', '/auth/login', { body: { email, password } });
    expect(login.body).toMatchObject({ mfaRequired: true });
  });

  it('asks for the code at sign-in and accepts the one computed now', async () => {
    clock.advance(30_000);
    const page = await browser.newPage();
    await page.goto(`${daemon.url}/d/account`);
    await submitSignIn(page, email, password);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await page.getByLabel('Authenticator code', { exact: true }).fill('123456');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: 'Not signed in' }).waitFor();
    await page.getByLabel('Authenticator code', { exact: true }).fill(code());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    await waitSignedIn(page);
    expect(new URL(page.url()).pathname).toBe('/d/account');
  });

  it('accepts a recovery code instead, once', async () => {
    const page = await browser.newPage();
    await page.goto(`${daemon.url}/d/sign-in`);
    await submitSignIn(page, email, password);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code', { exact: true }).fill(recoveryCodes[0]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await waitSignedIn(page);
    // Used once, it is spent.
    const again = await daemon.request('POST', '/auth/login', { body: { email, password } });
    const reuse = await daemon.request('POST', '/auth/2fa/verify', { body: { mfaToken: again.body.mfaToken, recoveryCode: recoveryCodes[0] } });
    expect(reuse.status).toBe(401);
  });

  it('showed no console errors on any page', () => {
    expect(browser.problems).toEqual([]);
  });
});
