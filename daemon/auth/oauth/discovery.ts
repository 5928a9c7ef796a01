import { egressRefusal } from '../../../probes/egress-fetch.js';
import type { AppDeps } from '../../deps.js';
import type { ProviderEndpoints } from './catalog.js';

/** The parts of an OpenID Connect discovery document the sign-in uses. */
export interface DiscoveredProvider extends ProviderEndpoints {
  issuer: string;
  jwksUrl: string;
  /** How the token endpoint wants the client to authenticate. */
  tokenAuth: 'client_secret_basic' | 'client_secret_post';
  pkce: boolean;
}

const CACHE_MS = 60 * 60 * 1000;

/** Discovery documents read, per issuer, with when (held by AppDeps.caches). */
export type DiscoveryCache = Map<string, { at: number; value: DiscoveredProvider }>;

export const createDiscoveryCache = (): DiscoveryCache => new Map();

/**
 * Reads `{issuer}/.well-known/openid-configuration` (cached for an hour) and checks that it
 * names the same issuer, so a document served elsewhere cannot stand in for it.
 */
export async function discover(deps: Pick<AppDeps, 'fetch' | 'clock' | 'caches'>, issuer: string): Promise<DiscoveredProvider> {
  const cache = deps.caches.discovery;
  const now = deps.clock.now().getTime();
  const hit = cache.get(issuer);
  if (hit && now - hit.at < CACHE_MS) return hit.value;
  const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const response = await deps.fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000) }).catch((error: unknown) => {
    const refused = egressRefusal(error);
    throw refused ? new Error(`discovery document at ${url} not read: ${refused}`) : error;
  });
  if (!response.ok) throw new Error(`discovery document at ${url} answered ${response.status}`);
  const doc = (await response.json()) as Record<string, unknown>;
  const text = (name: string): string => {
    const value = doc[name];
    if (typeof value !== 'string' || !/^https?:\/\//.test(value)) throw new Error(`discovery document at ${url} has no ${name}`);
    return value;
  };
  const docIssuer = text('issuer');
  if (docIssuer.replace(/\/+$/, '') !== issuer.replace(/\/+$/, '')) throw new Error(`discovery document at ${url} names another issuer (${docIssuer})`);
  const authMethods = Array.isArray(doc.token_endpoint_auth_methods_supported)
    ? (doc.token_endpoint_auth_methods_supported as string[])
    : ['client_secret_basic'];
  const challengeMethods = Array.isArray(doc.code_challenge_methods_supported) ? (doc.code_challenge_methods_supported as string[]) : [];
  const value: DiscoveredProvider = {
    issuer: docIssuer,
    authorizeUrl: text('authorization_endpoint'),
    tokenUrl: text('token_endpoint'),
    userinfoUrl: typeof doc.userinfo_endpoint === 'string' ? doc.userinfo_endpoint : undefined,
    jwksUrl: text('jwks_uri'),
    tokenAuth: authMethods.includes('client_secret_basic') || !authMethods.includes('client_secret_post') ? 'client_secret_basic' : 'client_secret_post',
    pkce: challengeMethods.includes('S256'),
  };
  cache.set(issuer, { at: now, value });
  return value;
}
