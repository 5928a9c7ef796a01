import type { Config } from '../../config/config.js';
import { PROVIDERS, type ProviderKey } from '../../config/provider-keys.js';

/** What a provider told us about the person signing in, after every check. */
export interface ExternalProfile {
  /** Stable id of the person at the provider. */
  subject: string;
  email?: string;
  /** Only a verified e-mail is used to find or create an account. */
  emailVerified: boolean;
  name?: string;
  /** Team-chat sign-ins: the workspace the provider says the person belongs to. */
  workspaceId?: string;
}

/** Where a provider lives. `{tenant}` in enterprise URLs is replaced before use. */
export interface ProviderEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  userinfoUrl?: string;
  /** OpenID Connect kinds: the expected `iss` (`{tenantid}` stands for the token's `tid`). */
  issuer?: string;
  jwksUrl?: string;
  /** First code platform: the list of the account's e-mail addresses. */
  emailsUrl?: string;
}

/** The fixed facts of one of the six providers. */
export interface ProviderDefinition {
  key: ProviderKey;
  kind: string;
  displayName: string;
  /** `oidc`: an ID token is required and verified; `oauth2`: identity comes from a user API. */
  protocol: 'oidc' | 'oauth2';
  scopes: string[];
  /** Whether the provider takes PKCE (S256); state is used everywhere regardless. */
  pkce: boolean;
  defaults(baseUrl?: string): ProviderEndpoints;
}

const info = (key: ProviderKey) => PROVIDERS.find((p) => p.key === key)!;
const define = (key: ProviderKey, rest: Omit<ProviderDefinition, 'key' | 'kind' | 'displayName'>): ProviderDefinition => ({
  key,
  kind: info(key).kind,
  displayName: info(key).displayName,
  ...rest,
});

/** The six providers of SPEC.md, with their real endpoints as defaults. */
export const PROVIDER_DEFINITIONS: Record<ProviderKey, ProviderDefinition> = {
  search_portal: define('search_portal', {
    protocol: 'oidc',
    scopes: ['openid', 'email', 'profile'],
    pkce: true,
    defaults: () => ({
      authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      userinfoUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
      issuer: 'https://accounts.google.com',
      jwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
    }),
  }),
  code_host_a: define('code_host_a', {
    protocol: 'oauth2',
    scopes: ['read:user', 'user:email'],
    pkce: true,
    defaults: () => ({
      authorizeUrl: 'https://github.com/login/oauth/authorize',
      tokenUrl: 'https://github.com/login/oauth/access_token',
      userinfoUrl: 'https://api.github.com/user',
      emailsUrl: 'https://api.github.com/user/emails',
    }),
  }),
  code_host_b: define('code_host_b', {
    protocol: 'oidc',
    scopes: ['read_user', 'openid'],
    pkce: true,
    defaults: (base = 'https://gitlab.com') => ({
      authorizeUrl: `${base}/oauth/authorize`,
      tokenUrl: `${base}/oauth/token`,
      userinfoUrl: `${base}/oauth/userinfo`,
      issuer: base,
      jwksUrl: `${base}/oauth/discovery/keys`,
    }),
  }),
  enterprise_cloud: define('enterprise_cloud', {
    protocol: 'oidc',
    scopes: ['openid', 'email', 'profile'],
    pkce: true,
    defaults: () => ({
      authorizeUrl: 'https://login.microsoftonline.com/{tenant}/oauth2/v2.0/authorize',
      tokenUrl: 'https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token',
      userinfoUrl: 'https://graph.microsoft.com/oidc/userinfo',
      issuer: 'https://login.microsoftonline.com/{tenantid}/v2.0',
      jwksUrl: 'https://login.microsoftonline.com/{tenant}/discovery/v2.0/keys',
    }),
  }),
  team_chat: define('team_chat', {
    protocol: 'oidc',
    scopes: ['openid', 'email', 'profile'],
    // Its OpenID sign-in documents no PKCE; state and nonce protect the flow.
    pkce: false,
    defaults: () => ({
      authorizeUrl: 'https://slack.com/openid/connect/authorize',
      tokenUrl: 'https://slack.com/api/openid.connect.token',
      userinfoUrl: 'https://slack.com/api/openid.connect.userInfo',
      issuer: 'https://slack.com',
      jwksUrl: 'https://slack.com/openid/connect/keys',
    }),
  }),
  game_chat: define('game_chat', {
    protocol: 'oauth2',
    scopes: ['identify', 'email'],
    pkce: false,
    defaults: () => ({
      authorizeUrl: 'https://discord.com/oauth2/authorize',
      tokenUrl: 'https://discord.com/api/oauth2/token',
      userinfoUrl: 'https://discord.com/api/users/@me',
    }),
  }),
};

/** The team-chat app install endpoints (the same app as notifications, OAuth v2). */
export const TEAM_CHAT_INSTALL_DEFAULTS = {
  authorizeUrl: 'https://slack.com/oauth/v2/authorize',
  tokenUrl: 'https://slack.com/api/oauth.v2.access',
};

/**
 * The endpoints of a provider under this configuration: defaults, then the self-hosted base URL,
 * then each override; `{tenant}` is filled with the enterprise tenant.
 */
export function resolveEndpoints(key: ProviderKey, config: Config, tenant: string): ProviderEndpoints {
  const overrides = config.auth.providerEndpoints[key] ?? {};
  const base = PROVIDER_DEFINITIONS[key].defaults(overrides.base_url);
  const merged: ProviderEndpoints = {
    authorizeUrl: overrides.authorize_url ?? base.authorizeUrl,
    tokenUrl: overrides.token_url ?? base.tokenUrl,
    userinfoUrl: overrides.userinfo_url ?? base.userinfoUrl,
    issuer: overrides.issuer ?? base.issuer,
    jwksUrl: overrides.jwks_url ?? base.jwksUrl,
    emailsUrl: overrides.emails_url ?? base.emailsUrl,
  };
  const fill = (url?: string) => url?.replaceAll('{tenant}', encodeURIComponent(tenant));
  return {
    authorizeUrl: fill(merged.authorizeUrl)!,
    tokenUrl: fill(merged.tokenUrl)!,
    userinfoUrl: fill(merged.userinfoUrl),
    issuer: merged.issuer,
    jwksUrl: fill(merged.jwksUrl),
    emailsUrl: merged.emailsUrl,
  };
}
