import type { createRemoteJWKSet } from 'jose';
import { createDiscoveryCache, type DiscoveryCache } from './auth/oauth/discovery.js';
import { createVerifiedTokenCache, type VerifiedTokenCache } from './auth/hs256.js';
import { WriteHealth } from './db/database-fault.js';
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
  /** Whether database writes are failing (a full disk): `/ready` fails until a trial write works. */
  writeHealth: WriteHealth;
}

/** Empty caches for a new app. */
export const createAppCaches = (): AppCaches => ({
  verifiedTokens: createVerifiedTokenCache(),
  discovery: createDiscoveryCache(),
  keySets: new Map(),
  dayHistory: new DayHistoryCache(),
  writeHealth: new WriteHealth(),
});
