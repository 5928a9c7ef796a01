import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, type TestDaemon } from '../support/daemon.js';

/** Shared steps of the browser suites, written as a person would do them. */

/** Fills the sign-in form and submits it. */
export async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Waits until the page is a signed-in page (the frame with its Sign out button). */
export async function waitSignedIn(page: Page): Promise<void> {
  await page.locator('header').getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Signs in through the page at `path` (a deep link goes through sign-in and comes back). */
export async function signInAt(page: Page, daemon: TestDaemon, path: string, email: string, password: string): Promise<void> {
  await page.goto(`${daemon.url}${path}`);
  await page.waitForURL(/\/d\/sign-in/);
  await submitSignIn(page, email, password);
  await waitSignedIn(page);
}

/**
 * Signs in as the built-in admin with its changed password. Suites not about the forced change
 * have it done through the API first; where a test already changed it in the browser, that
 * call fails and is ignored (a wrong password then fails the sign-in below).
 */
export async function signInAsAdmin(page: Page, daemon: TestDaemon, path = '/'): Promise<void> {
  await daemon.adminToken().catch(() => undefined);
  await signInAt(page, daemon, path, 'admin@svc.local', ADMIN_PASSWORD);
}

/** The text of the error shown next to a form field (its `<id>-error` element). */
export async function fieldError(page: Page, id: string): Promise<string> {
  const locator = page.locator(`#${id}-error`);
  await locator.waitFor();
  return (await locator.textContent()) ?? '';
}
