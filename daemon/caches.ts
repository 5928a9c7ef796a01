import type { createRemoteJWKSet } from 'jose';
import type { CheckTypeSummary } from '../checks/index.js';
import { createProbeCaches, type ProbeCaches } from '../probes/probe-caches.js';
import type { RateLimiter } from './limits/rate-limit.js';
import { createDiscoveryCache, type DiscoveryCache } from './auth/oauth/discovery.js';
import { createVerifiedTokenCache, type VerifiedTokenCache } from './auth/hs256.js';
import type { RunnerConfig } from './config/config.js';
import { SamlVerifier } from './auth/saml/verify-worker.js';
import { PatternMatcher } from './orgs/pattern-matcher.js';
import { JsonQueryPool } from './runner/json-query-pool.js';
import { ConversionWorkers } from './import/conversion-workers.js';
import { WriteHealth } from './db/database-fault.js';
import { DayHistoryCache } from './status-pages/public/day-history-cache.js';
import { createGzipCache, type GzipCache } from './status-pages/public/cacheable.js';

/**
 * What one app keeps between requests. It lives on AppDeps, not in modules, so two apps in one
 * process (tests, a daemon per database) never share a cache or see each other's entries.
 */
export interface AppCaches {
  /** Signing keys and the claims of recently verified session tokens, per secret. */
  verifiedTokens: VerifiedTokenCache;
  /** OpenID Connect discovery documents, per issuer, kept for an hour. */
  discovery: DiscoveryCache;
  /** Providers' ID-token key sets, per URL (jose refetches a set on an unknown key id). */
  keySets: Map<string, ReturnType<typeof createRemoteJWKSet>>;
  /** The enterprise tenant, read once: a stored override takes effect at the next restart. */
  enterpriseTenant?: Promise<string>;
  /** Past days of status-page history, which no longer change. */
  dayHistory: DayHistoryCache;
  /** Compressed public answers (status pages, feeds, badges) by their ETag. */
  gzipped: GzipCache;
  /** The check-type catalog with its JSON Schemas, built on first use; fixed for the life of the app. */
  checkTypes?: CheckTypeSummary[];
  /** Unknown heartbeat ping tokens per client address, made on the first ping. */
  pingLimiter?: { unknown: RateLimiter; perCheck: RateLimiter };
  /** Test sends of notification channels per organization. */
  channelTestLimiter?: RateLimiter;
  /** What probes keep between runs: the RDAP bootstrap file, compiled JSON queries. */
  probes: ProbeCaches;
  /** E-mail patterns (organizations', registration's) matched on a worker, with how each fared lately. */
  patterns: PatternMatcher;
  /** The worker threads that evaluate checks' JSON queries with a time limit. */
  jsonQueries: JsonQueryPool;
  /** The worker that verifies SAML responses. */
  saml: SamlVerifier;
  /** The worker of the next import, started ahead once an import has run. */
  conversions: ConversionWorkers;
  /** Whether database writes are failing (a full disk): `/ready` fails until a trial write works. */
  writeHealth: WriteHealth;
}

/** Empty caches for a new app; `rdapBootstrapUrl` is `SVC_RDAP_BOOTSTRAP_URL`, the runner's settings size the JSON-query workers. */
export const createAppCaches = (
  settings: { rdapBootstrapUrl?: string; runner?: Pick<RunnerConfig, 'expressionTimeoutMs' | 'expressionWorkers'> } = {},
): AppCaches => ({
  verifiedTokens: createVerifiedTokenCache(),
  discovery: createDiscoveryCache(),
  keySets: new Map(),
  dayHistory: new DayHistoryCache(),
  gzipped: createGzipCache(),
  probes: createProbeCaches({ rdapBootstrapUrl: settings.rdapBootstrapUrl }),
  patterns: new PatternMatcher(),
  jsonQueries: new JsonQueryPool({ workers: settings.runner?.expressionWorkers ?? 2, timeoutMs: settings.runner?.expressionTimeoutMs ?? 1000 }),
  saml: new SamlVerifier(),
  conversions: new ConversionWorkers(),
  writeHealth: new WriteHealth(),
});

/** Stops the caches' worker threads. */
export async function closeAppCaches(caches: AppCaches): Promise<void> {
  await Promise.all([caches.patterns.close(), caches.jsonQueries.close(), caches.saml.close(), caches.conversions.close()]);
}
