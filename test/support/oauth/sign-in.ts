import type { TestDaemon } from '../daemon.js';
import { TestBrowser } from './browser.js';

/** Where an external sign-in ended: the dashboard's hand-off page, with a code or an error. */
export interface SignInLanding {
  url: URL;
  code?: string;
  error?: string;
}

/**
 * Drives a sign-in as a browser would: `/auth/{provider}/login`, through the provider, back to
 * the callback, and stops at `{base_url}/d/auth/complete` (the dashboard is not part of the API).
 */
export async function browserSignIn(daemon: TestDaemon, provider: string, options: { browser?: TestBrowser; returnTo?: string } = {}): Promise<SignInLanding> {
  const browser = options.browser ?? new TestBrowser();
  const base = daemon.deps.config.baseUrl;
  const start = `${daemon.url}/api/v1/auth/${provider}/login${options.returnTo !== undefined ? `?returnTo=${encodeURIComponent(options.returnTo)}` : ''}`;
  const landed = new URL(await browser.follow(start, (url) => url.startsWith(`${base}/d/auth/complete`)));
  return { url: landed, code: landed.searchParams.get('code') ?? undefined, error: landed.searchParams.get('error') ?? undefined };
}

/** The whole round trip: browser sign-in, then the dashboard's exchange of the code. */
export async function signInAndExchange(daemon: TestDaemon, provider: string, options: { browser?: TestBrowser; returnTo?: string } = {}) {
  const landing = await browserSignIn(daemon, provider, options);
  if (!landing.code) throw new Error(`sign-in with ${provider} ended in error ${landing.error}`);
  const exchange = await daemon.request('POST', '/auth/handoff/exchange', { body: { code: landing.code } });
  return { landing, exchange };
}
