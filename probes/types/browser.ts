import { CHROMIUM_PATH } from '../chromium-path.js';
import type { Browser, Page, Request } from 'playwright-core';
import { statusCodeMatcher } from '../../checks/status-codes.js';
import { onAbort } from '../abort.js';
import { startBrowserEgressProxy, type BrowserEgressProxy, type ProxyFailure } from '../browser-egress-proxy.js';
import { defineProbe, ProbeFailure } from '../probe.js';
import { keywordFailure } from '../text-match.js';

/** Debian's Chromium, which the daemon drives (playwright-core ships no browser). */

/** An address the egress policy always refuses (unspecified): the proxy answers 403 and never connects. */
const NOWHERE = 'http://0.0.0.0:9';

// Root in a container has no user namespace for Chromium's sandbox; the rest keeps a headless
// run from calling home, and leaves it no way to the network but the egress proxy: no QUIC, no
// UDP for WebRTC outside the proxy, no DNS prefetching, and no lookups of its own at all (every
// name is resolved by the proxy, through the policy).
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--dns-prefetch-disable',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
  // Chromium's own services (Google sign-in, component and extension updates) even so call
  // Google's hosts; pointed at an address the policy always refuses, they never leave.
  ...['gaia-url', 'google-apis-url', 'lso-url'].map((name) => `--${name}=${NOWHERE}`),
  `--component-updater=url-source=${NOWHERE}/`,
];

/** Every connection through the proxy; `<-loopback>` removes Chromium's own exception for loopback. */
const proxyArgs = (proxy: BrowserEgressProxy) => [`--proxy-server=${proxy.url}`, '--proxy-bypass-list=<-loopback>'];

/**
 * A page load in headless Chromium through `playwright-core`: one browser per run (closed when
 * the run ends or its deadline passes, which ends every connection it opened). Every connection
 * the browser makes (the page, its redirects, scripts' requests, WebSockets) goes through a
 * local proxy that applies the egress policy (probes/browser-egress-proxy.ts). A page whose
 * navigation the policy refused is down with the policy's message. The latency is the page
 * load, not the browser's start.
 */
export const browserProbe = defineProbe({
  type: 'browser',
  async run(check, context) {
    const { config } = check;
    // The page's own host is checked before anything starts: a refused target costs no browser.
    await context.egress.resolve(new URL(check.target).hostname);
    const { chromium } = await import('playwright-core');
    let proxy: BrowserEgressProxy | undefined;
    let browser: Browser | undefined;
    let ended = false;
    const end = async () => {
      ended = true;
      await Promise.all([browser?.close().catch(() => {}), proxy?.close()]);
    };
    const forget = onAbort(context.signal, () => void end());
    try {
      proxy = await startBrowserEgressProxy(context.egress);
      if (ended) throw context.signal.reason;
      browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...proxyArgs(proxy)], timeout: context.timeoutMs });
      if (ended) throw context.signal.reason;
      const page = await browser.newPage({ ignoreHTTPSErrors: config.ignoreTlsErrors, serviceWorkers: 'block' });
      const navigation = watchNavigation(page, proxy);
      const started = context.now();
      const response = await page.goto(check.target, { waitUntil: config.waitUntil, timeout: context.timeoutMs }).catch((error: Error) => {
        throw new ProbeFailure(failureMessage(navigation.failure()) ?? `the page did not load: ${navigationError(error)}`);
      });
      const latencyMs = context.now() - started;
      navigation.assertAllowed();
      if (!response) throw new ProbeFailure('the page did not load: no response');
      const status = response.status();
      if (!statusCodeMatcher(config.expectedStatusCodes)(status)) {
        throw new ProbeFailure(`expected status ${config.expectedStatusCodes.join(', ')}, got ${status}`);
      }
      // biome-ignore lint/performance/useDomNodeTextContent: the keyword is looked for in the text a person sees, which innerText gives and textContent does not
      const text = config.keyword ? await page.locator('body').innerText({ timeout: context.timeoutMs }) : '';
      const title = (await page.title()).slice(0, 80);
      // The page may have navigated on by itself (a script setting `location`) since it loaded.
      navigation.assertAllowed();
      if (config.keyword) {
        const problem = keywordFailure(text, config.keyword, 'rendered page');
        if (problem) throw new ProbeFailure(problem);
      }
      return { message: `${status}${title ? ` ${JSON.stringify(title)}` : ''}`, latencyMs };
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      throw error;
    } finally {
      forget();
      await end();
    }
  },
});

/** The result message for a connection the proxy did not make. */
function failureMessage(failure: ProxyFailure): string;
function failureMessage(failure: ProxyFailure | undefined): string | undefined;
function failureMessage(failure: ProxyFailure | undefined): string | undefined {
  if (!failure) return undefined;
  return failure.kind === 'refused' ? failure.message : `the page did not load: ${failure.message}`;
}

/**
 * Follows the main frame's navigations (the first, its redirects, and any the page starts by
 * itself) and remembers the first one the proxy did not connect: refused by the policy, or
 * unreachable (a proxied failure reads as Chromium's own error would without the proxy).
 */
function watchNavigation(page: Page, proxy: BrowserEgressProxy) {
  let first: ProxyFailure | undefined;
  const isMainNavigation = (request: Request) => {
    try {
      return request.isNavigationRequest() && request.frame() === page.mainFrame();
    } catch {
      return false;
    }
  };
  page.on('response', (response) => {
    if (isMainNavigation(response.request())) first ??= proxy.failureOf(response.headers());
  });
  page.on('requestfailed', (request) => {
    if (isMainNavigation(request)) first ??= proxy.failureFor(request.url());
  });
  return {
    failure: () => first,
    assertAllowed() {
      if (first) throw new ProbeFailure(failureMessage(first));
    },
  };
}

/** Chromium's net error (net::ERR_CONNECTION_REFUSED) without Playwright's call log. */
function navigationError(error: Error): string {
  const net = /net::ERR_[A-Z_]+/.exec(error.message)?.[0];
  if (net) return net;
  return (error.message.split('\n')[0] ?? error.name).replace(/^page\.goto: /, '').slice(0, 120);
}
