import { RateLimiter } from '../../limits/rate-limit.js';
import type { AppDeps } from '../../deps.js';

const WINDOW_SECONDS = 60;

/**
 * Counts one request of a client (its address, as `SVC_TRUST_PROXY` resolves it) to the public
 * pages, JSON, feeds and badges together; throws 429 RATE_LIMITED past
 * `SVC_STATUS_PAGE_RATE_LIMIT` a minute. Generous: a page and its badges are cached for 30 s.
 */
export async function limitPublicClient(deps: Pick<AppDeps, 'db' | 'clock' | 'config'>, clientAddress: string): Promise<void> {
  await new RateLimiter(deps, deps.config.statusPages.rateLimit, WINDOW_SECONDS).reserve(`public-status:ip:${clientAddress}`);
}
