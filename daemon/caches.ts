import type { createRemoteJWKSet } from 'jose';
import { createDiscoveryCache, type DiscoveryCache } from './auth/oauth/discovery.js';
import { createVerifiedTokenCache, type VerifiedTokenCache } from './auth/hs256.js';
import type { RunnerConfig } from './config/config.js';
import { SamlVerifier } from './auth/saml/verify-worker.js';
import { PatternMatcher } from './orgs/pattern-matcher.js';
import { JsonQueryPool } from './runner/json-query-pool.js';
import { DayHistoryCache } from './status-pages/public/day-history-cache.js';

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
  /** E-mail patterns (organizations', registration's) matched on a worker, with how each fared lately. */
  patterns: PatternMatcher;
  /** The worker threads that evaluate checks' JSON queries with a time limit. */
  jsonQueries: JsonQueryPool;
  /** The worker that verifies SAML responses. */
  saml: SamlVerifier;
}

/** Empty caches for a new app. */
export const createAppCaches = (runner: Pick<RunnerConfig, 'expressionTimeoutMs' | 'expressionWorkers'>): AppCaches => ({
  verifiedTokens: createVerifiedTokenCache(),
  discovery: createDiscoveryCache(),
  keySets: new Map(),
  dayHistory: new DayHistoryCache(),
  patterns: new PatternMatcher(),
  jsonQueries: new JsonQueryPool({ workers: runner.expressionWorkers, timeoutMs: runner.expressionTimeoutMs }),
  saml: new SamlVerifier(),
});

/** Stops the caches' worker threads. */
export async function closeAppCaches(caches: AppCaches): Promise<void> {
  await Promise.all([caches.patterns.close(), caches.jsonQueries.close(), caches.saml.close()]);
}
