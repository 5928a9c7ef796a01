import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { updateSwitch } from './required-tool.js';

/** Debian's chromium; CI installs it (`.ci/run`). */
export const CHROMIUM_PATH = process.env.SVC_TEST_CHROMIUM ?? '/usr/bin/chromium';

/** Where the suites leave screenshots for review (git-ignored). */
export const ARTIFACTS_DIR = fileURLToPath(new URL('../artifacts', import.meta.url));

/**
 * Whether the browser suites can run. Without chromium they are skipped with a printed reason,
 * except under CI=true, where a missing browser is a failure rather than a silent pass.
 */
export function browserSkipReason(): string | undefined {
  if (existsSync(CHROMIUM_PATH)) return undefined;
  const reason = `${CHROMIUM_PATH} is missing (install Debian's chromium)`;
  if (process.env.CI === 'true') throw new Error(`CI=true requires the browser suites: ${reason}`);
  console.warn(`[svc tests] dashboard browser suites skipped: ${reason}`);
  return reason;
}

/** The flags this machine needs: no sandbox (root), and no background calls to the closed network. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface ConsoleProblem {
  page: string;
  text: string;
}

export interface TestBrowser {
  context: BrowserContext;
  /** Console errors and uncaught exceptions of every page so far (expected API answers excluded). */
  problems: ConsoleProblem[];
  /** A new tab: its own sessionStorage, so a new tab is a new sign-in. */
  newPage(options?: { width?: number; height?: number }): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Chromium reports every 4xx answer to a fetch as "Failed to load resource". For the API those
 * are answers the dashboard expects and shows as messages (a wrong password, a used code), so
 * they are not problems of the page; any other console error or exception is.
 */
function isExpectedApiAnswer(text: string, url: string | undefined): boolean {
  return /Failed to load resource: the server responded with a status of 4\d\d/.test(text) && !!url && new URL(url).pathname.startsWith('/api/v1/');
}

/** Starts headless chromium with a fresh profile in a temporary folder. */
export async function launchBrowser(): Promise<TestBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'svc-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    // Explicit, so dates and sorting are the same on every machine.
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  context.setDefaultTimeout(15_000);
  const problems: ConsoleProblem[] = [];
  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      if (isExpectedApiAnswer(message.text(), message.location().url)) return;
      problems.push({ page: page.url(), text: message.text() });
    });
    page.on('pageerror', (error) => problems.push({ page: page.url(), text: `uncaught: ${error.message}` }));
  };
  // The persistent context opens with one blank tab; it is closed so every test starts clean.
  for (const page of context.pages()) await page.close();
  return {
    context,
    problems,
    async newPage(options = {}) {
      const page = await context.newPage();
      watch(page);
      if (options.width) await page.setViewportSize({ width: options.width, height: options.height ?? 800 });
      return page;
    },
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page screenshot under test/artifacts/ for review. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Where the README's screenshots are written: docs/screenshots/ with `UPDATE_SCREENSHOTS=1`, and
 * otherwise test/artifacts/screenshots/ (git-ignored), so running the tests changes no tracked file.
 */
export function docScreenshotsDir(): string {
  const dir = updateSwitch('UPDATE_SCREENSHOTS') ? fileURLToPath(new URL('../../docs/screenshots/', import.meta.url)) : join(ARTIFACTS_DIR, 'screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Screenshots for the README (<name>-1280.png and -375.png, see `docScreenshotsDir`), at a
 * desktop and a phone width; taken on SQLite only, so both databases' runs do not overwrite each other.
 */
export async function docScreenshots(page: Page, name: string, kind: string): Promise<void> {
  if (kind !== 'sqlite') return;
  const dir = docScreenshotsDir();
  const { width, height } = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const shotWidth of [1280, 375]) {
    await page.setViewportSize({ width: shotWidth, height: 900 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(dir, `${name}-${shotWidth}.png`), fullPage: true });
  }
  await page.setViewportSize({ width, height });
}

/** True when the page fits its viewport's width (usable on a 375 px phone without sideways scrolling). */
export async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}
