import { createDiscoveryCache, type DiscoveryCache } from './auth/oauth/discovery.js';
import { createVerifiedTokenCache, type VerifiedTokenCache } from './auth/hs256.js';

/**
 * What one app keeps between requests. It lives on AppDeps, not in modules, so two apps in one
 * process (tests, a daemon per database) never share a cache or see each other's entries.
 */
export interface AppCaches {
  /** Signing keys and the claims of recently verified session tokens, per secret. */
  verifiedTokens: VerifiedTokenCache;
  /** OpenID Connect discovery documents, per issuer, kept for an hour. */
  discovery: DiscoveryCache;
}

/** Empty caches for a new app. */
export const createAppCaches = (): AppCaches => ({ verifiedTokens: createVerifiedTokenCache(), discovery: createDiscoveryCache() });
