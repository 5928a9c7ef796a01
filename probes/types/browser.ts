import { CHROMIUM_PATH } from '../chromium-path.js';
import { isIP } from 'node:net';
import type { Browser, Route } from 'playwright-core';
import { statusCodeMatcher } from '../../checks/status-codes.js';
import { onAbort } from '../abort.js';
import { defineProbe, ProbeFailure } from '../probe.js';
import { keywordFailure } from '../text-match.js';

/** Debian's Chromium, which the daemon drives (playwright-core ships no browser). */

// Root in a container has no user namespace for Chromium's sandbox; the rest keeps a headless
// run from calling home.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * A page load in headless Chromium through `playwright-core`: one browser per run (closed when
 * the run ends or its deadline passes, which ends every connection it opened). Every request
 * the page makes is checked against the egress policy first. The latency is the page load, not
 * the browser's start.
 */
export const browserProbe = defineProbe({
  type: 'browser',
  async run(check, context) {
    const { config } = check;
    const target = new URL(check.target);
    // The page's own host is checked before anything starts (a refused target costs no browser),
    // and Chromium is told to use the address allowed, so that its own lookup cannot differ.
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    const { address, family } = await context.egress.resolve(host);
    const pin = isIP(host) ? [] : [`--host-resolver-rules=MAP ${host} ${family === 6 ? `[${address}]` : address}`];
    const { chromium } = await import('playwright-core');
    let browser: Browser | undefined;
    let closed = false;
    const close = () => {
      closed = true;
      void browser?.close().catch(() => {});
    };
    const forget = onAbort(context.signal, close);
    try {
      browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...pin], timeout: context.timeoutMs });
      if (closed) throw context.signal.reason;
      const page = await browser.newPage({ ignoreHTTPSErrors: config.ignoreTlsErrors, serviceWorkers: 'block' });
      let refused: string | undefined;
      await page.route('**/*', async (route: Route) => {
        const url = new URL(route.request().url());
        if (url.protocol !== 'http:' && url.protocol !== 'https:') return route.continue();
        try {
          await context.egress.resolve(url.hostname.replace(/^\[(.*)\]$/, '$1'));
          await route.continue();
        } catch (error) {
          refused ??= (error as Error).message;
          await route.abort('blockedbyclient').catch(() => {});
        }
      });
      const started = context.now();
      const response = await page.goto(check.target, { waitUntil: config.waitUntil, timeout: context.timeoutMs }).catch((error: Error) => {
        if (refused) throw new ProbeFailure(refused);
        throw new ProbeFailure(`the page did not load: ${navigationError(error)}`);
      });
      const latencyMs = context.now() - started;
      if (!response) throw new ProbeFailure('the page did not load: no response');
      const status = response.status();
      if (!statusCodeMatcher(config.expectedStatusCodes)(status)) {
        throw new ProbeFailure(`expected status ${config.expectedStatusCodes.join(', ')}, got ${status}`);
      }
      if (config.keyword) {
        const text = await page.locator('body').innerText({ timeout: context.timeoutMs });
        const problem = keywordFailure(text, config.keyword, 'rendered page');
        if (problem) throw new ProbeFailure(problem);
      }
      const title = (await page.title()).slice(0, 80);
      return { message: `${status}${title ? ` ${JSON.stringify(title)}` : ''}`, latencyMs };
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      throw error;
    } finally {
      forget();
      close();
    }
  },
});

/** Chromium's net error (net::ERR_CONNECTION_REFUSED) without Playwright's call log. */
function navigationError(error: Error): string {
  const net = /net::ERR_[A-Z_]+/.exec(error.message)?.[0];
  if (net) return net;
  return (error.message.split('\n')[0] ?? error.name).replace(/^page\.goto: /, '').slice(0, 120);
}
