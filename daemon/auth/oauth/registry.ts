import type { Provider } from '../../../contract/responses.js';
import { validateTenant } from '../../config/tenant.js';
import { canonicalProviderKey, PROVIDERS, type ProviderKey } from '../../config/provider-keys.js';
import type { AppDeps } from '../../deps.js';
import { readParameter } from '../../parameters.js';
import { PROVIDER_DEFINITIONS, resolveEndpoints, type ProviderEndpoints } from './catalog.js';
import { discover } from './discovery.js';

/** The key of the generic OpenID Connect provider. */
export const GENERIC_OIDC_KEY = 'oidc';

/** The system parameter with the super admin's enterprise tenant (effective after restart). */
export const TENANT_PARAMETER = 'auth.enterprise_cloud.tenant_id';

/** An enabled provider, ready for a sign-in. */
export interface SignInProvider {
  key: ProviderKey | typeof GENERIC_OIDC_KEY;
  kind: string;
  displayName: string;
  protocol: 'oidc' | 'oauth2';
  scopes: string[];
  pkce: boolean;
  clientId: string;
  clientSecret: string;
  tokenAuth: 'client_secret_basic' | 'client_secret_post';
  endpoints: ProviderEndpoints;
  /** Enterprise directory: the tenant in its URLs. */
  tenant?: string;
}

/** What `GET /auth/providers` lists. */
export type ProviderListing = Provider;

type Deps = Pick<AppDeps, 'db' | 'config' | 'clock' | 'fetch' | 'logger' | 'caches'>;

/**
 * The enterprise tenant: the stored super-admin override when valid, else the configuration.
 * Read once per app: a stored tenant takes effect at the next restart, like hashing overrides.
 */
export function effectiveTenant(deps: Deps): Promise<string> {
  deps.caches.enterpriseTenant ??= readStoredTenant(deps);
  return deps.caches.enterpriseTenant;
}

async function readStoredTenant(deps: Deps): Promise<string> {
  const configured = deps.config.auth.enterpriseCloudTenantId;
  const stored = await readParameter(deps, null, TENANT_PARAMETER);
  if (!stored.set) return configured;
  const value = stored.value;
  // null is a stored "inherit the configuration".
  if (value === null && stored.malformed === undefined) return configured;
  if (typeof value !== 'string' || validateTenant(value) !== undefined) {
    deps.logger.warn({ parameter: TENANT_PARAMETER }, 'stored enterprise tenant ignored (not a valid tenant); keeping the configured one');
    return configured;
  }
  return value || 'common';
}

/** The enabled providers, in the order of SPEC.md, the generic one last. */
export function listProviders(deps: Pick<AppDeps, 'config'>): ProviderListing[] {
  const out: ProviderListing[] = PROVIDERS.filter((p) => deps.config.auth.providers[p.key]).map((p) => ({
    key: p.key,
    kind: p.kind,
    displayName: p.displayName,
  }));
  const oidc = deps.config.auth.oidc;
  if (oidc) out.push({ key: GENERIC_OIDC_KEY, kind: 'OpenID Connect provider', displayName: oidc.displayName });
  return out;
}

/**
 * The enabled provider named by a key or platform name, or undefined. The generic provider's
 * endpoints come from its discovery document (throws when it cannot be read).
 */
export async function findProvider(deps: Deps, name: string): Promise<SignInProvider | undefined> {
  if (name.toLowerCase() === GENERIC_OIDC_KEY) {
    const oidc = deps.config.auth.oidc;
    if (!oidc) return undefined;
    const found = await discover(deps, oidc.issuer);
    return {
      key: GENERIC_OIDC_KEY,
      kind: 'OpenID Connect provider',
      displayName: oidc.displayName,
      protocol: 'oidc',
      scopes: ['openid', 'email', 'profile'],
      pkce: found.pkce,
      clientId: oidc.clientId,
      clientSecret: oidc.clientSecret,
      tokenAuth: found.tokenAuth,
      endpoints: found,
    };
  }
  const key = canonicalProviderKey(name);
  const client = key && deps.config.auth.providers[key];
  if (!key || !client) return undefined;
  const definition = PROVIDER_DEFINITIONS[key];
  const tenant = key === 'enterprise_cloud' ? await effectiveTenant(deps) : undefined;
  return {
    key,
    kind: definition.kind,
    displayName: definition.displayName,
    protocol: definition.protocol,
    scopes: definition.scopes,
    pkce: definition.pkce,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    // Every one of the six accepts the secret in the form body.
    tokenAuth: 'client_secret_post',
    endpoints: resolveEndpoints(key, deps.config, tenant ?? 'common'),
    tenant,
  };
}

/** The callback URL registered at every provider: `{base_url}/api/v1/auth/{provider}/callback`. */
export const callbackUrl = (deps: Pick<AppDeps, 'config'>, key: string): string => `${deps.config.baseUrl}/api/v1/auth/${key}/callback`;
