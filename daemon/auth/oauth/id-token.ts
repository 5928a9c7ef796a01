import type { JWTPayload } from 'jose';
import type { AppDeps } from '../../deps.js';
import { SignInError } from './provider-error.js';
import type { SignInProvider } from './registry.js';

/** The personal-account directory of the enterprise cloud (`consumers`). */
const CONSUMERS_TENANT_ID = '9188040d-6c67-4c5b-b112-36a304b66dad';
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// jose loads with the first ID token: a daemon without OIDC sign-in does not hold it.
type Jose = typeof import('jose');

// One key set per URL and app: jose caches keys and refetches on an unknown key id.
function keySet({ createRemoteJWKSet, customFetch }: Jose, deps: Pick<AppDeps, 'fetch' | 'caches'>, url: string) {
  let jwks = deps.caches.keySets.get(url);
  if (!jwks) {
    jwks = createRemoteJWKSet(new URL(url), { [customFetch]: (input: string, init: RequestInit) => deps.fetch(input, init) });
    deps.caches.keySets.set(url, jwks);
  }
  return jwks;
}

/**
 * Verifies an ID token: signature against the provider's key set, audience (our client id),
 * issuer, expiry on the injected clock (one minute of skew), and the nonce of this sign-in.
 */
export async function verifyIdToken(
  deps: Pick<AppDeps, 'fetch' | 'clock' | 'caches'>,
  provider: SignInProvider,
  idToken: string,
  nonce: string | null,
): Promise<JWTPayload> {
  const { jwksUrl, issuer } = provider.endpoints;
  if (!jwksUrl || !issuer) throw new SignInError('provider_error', `${provider.key} has no key set or issuer configured`);
  const jose = await import('jose');
  let payload: JWTPayload;
  try {
    ({ payload } = await jose.jwtVerify(idToken, keySet(jose, deps, jwksUrl), {
      audience: provider.clientId,
      currentDate: deps.clock.now(),
      clockTolerance: 60,
      requiredClaims: ['sub', 'iss', 'exp'],
    }));
  } catch (error) {
    throw new SignInError('provider_error', `${provider.key} ID token refused: ${(error as Error).message}`);
  }
  if (!issuerMatches(provider, issuer, payload)) throw new SignInError('provider_error', `${provider.key} ID token has an unexpected issuer`);
  if (!nonce || payload.nonce !== nonce) throw new SignInError('provider_error', `${provider.key} ID token nonce does not match this sign-in`);
  // An ID token for several audiences must have been issued to us (OIDC Core 3.1.3.7).
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== provider.clientId) {
    throw new SignInError('provider_error', `${provider.key} ID token was issued to another party`);
  }
  return payload;
}

function issuerMatches(provider: SignInProvider, expected: string, payload: JWTPayload): boolean {
  const iss = String(payload.iss ?? '');
  const same = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
  if (!expected.includes('{tenantid}')) {
    // The portal provider also issues tokens under its bare host name.
    return same(iss, expected) || (provider.key === 'search_portal' && iss === expected.replace(/^https:\/\//, ''));
  }
  // Enterprise directories: the issuer names the account's own tenant, which must fit the configured one.
  const tid = typeof payload.tid === 'string' ? payload.tid : '';
  if (!GUID.test(tid) || !same(iss, expected.replaceAll('{tenantid}', tid))) return false;
  const tenant = provider.tenant ?? 'common';
  if (GUID.test(tenant)) return tenant.toLowerCase() === tid.toLowerCase();
  if (tenant === 'consumers') return tid === CONSUMERS_TENANT_ID;
  if (tenant === 'organizations') return tid !== CONSUMERS_TENANT_ID;
  return true;
}
