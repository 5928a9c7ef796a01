import type { Context } from 'koa';
import type { AppDeps } from '../../deps.js';
import { notFound } from '../../errors.js';
import { joinByEmailPattern } from '../../orgs/email-pattern.js';
import { issueHandoffCode } from '../handoff.js';
import { RateLimiter } from '../../limits/rate-limit.js';
import { randomToken } from '../../crypto/tokens.js';
import { resolveExternalAccount } from './accounts.js';
import { bindStateToBrowser, browserStartedState } from './browser-binding.js';
import { readProfile } from './profile.js';
import { SignInError } from './provider-error.js';
import { callbackUrl, findProvider, type SignInProvider } from './registry.js';
import { safeReturnTo } from './return-to.js';
import { samlRequiredOrganizations } from '../saml/saml-required.js';
import { consumeState, createState, STATE_TTL_SECONDS } from './states.js';
import { exchangeCode } from './token-exchange.js';
import { joinLinkedWorkspaces } from './workspace-join.js';

/** Where the browser lands after an external sign-in: the dashboard's hand-off page. */
export const completePage = (deps: Pick<AppDeps, 'config'>, params: Record<string, string>): string =>
  `${deps.config.baseUrl}/d/auth/complete?${new URLSearchParams(params).toString()}`;

/** The enabled provider of a path, or 404 (an unknown and a disabled provider look alike). */
export async function providerOf(deps: AppDeps, name: string): Promise<SignInProvider> {
  let provider: SignInProvider | undefined;
  try {
    provider = await findProvider(deps, name);
  } catch (error) {
    deps.logger.warn({ provider: name }, `sign-in provider unavailable: ${(error as Error).message}`);
    throw new SignInError('provider_error', 'the provider cannot be reached');
  }
  if (!provider) throw notFound(`No sign-in provider "${name}" is enabled.`);
  return provider;
}

/**
 * Builds the provider's authorization URL for a new sign-in, with state (stored, single use,
 * bound to this browser), PKCE where the provider takes it and a nonce for OpenID Connect.
 * Limited per client address (429 RATE_LIMITED past it).
 */
export async function authorizationUrl(
  deps: AppDeps,
  ctx: Context,
  provider: SignInProvider,
  options: { purpose: 'login' | 'install'; returnTo: string; authorizeUrl?: string; scopes?: string[]; userUid?: string; organizationUid?: string },
): Promise<string> {
  // Each start stores a row: a client may start only so many (SVC_AUTH_EXTERNAL_SIGN_IN_RATE_LIMIT).
  await new RateLimiter(deps, deps.config.auth.externalSignInRateLimit, STATE_TTL_SECONDS).reserve(`oauth-start:ip:${ctx.ip}`);
  // Loaded with the first sign-in through a provider, as jose is for ID tokens (id-token.ts).
  const { CodeChallengeMethod, generateCodeVerifier, OAuth2Client } = await import('arctic');
  const codeVerifier = provider.pkce ? generateCodeVerifier() : null;
  const nonce = provider.protocol === 'oidc' && options.purpose === 'login' ? randomToken(16) : null;
  const state = await createState(deps, {
    provider: provider.key,
    purpose: options.purpose,
    codeVerifier,
    nonce,
    returnTo: safeReturnTo(options.returnTo),
    userUid: options.userUid ?? null,
    organizationUid: options.organizationUid ?? null,
  });
  const client = new OAuth2Client(provider.clientId, provider.clientSecret, redirectUri(deps, provider, options.purpose));
  const endpoint = options.authorizeUrl ?? provider.endpoints.authorizeUrl;
  const scopes = options.scopes ?? provider.scopes;
  const url = codeVerifier
    ? client.createAuthorizationURLWithPKCE(endpoint, state, CodeChallengeMethod.S256, codeVerifier, scopes)
    : client.createAuthorizationURL(endpoint, state, scopes);
  if (nonce) url.searchParams.set('nonce', nonce);
  bindStateToBrowser(deps, ctx, state);
  return url.toString();
}

/** The redirect URI registered at the provider for a purpose. */
export const redirectUri = (deps: Pick<AppDeps, 'config'>, provider: Pick<SignInProvider, 'key'>, purpose: 'login' | 'install'): string =>
  purpose === 'install' ? `${deps.config.baseUrl}/api/v1/auth/${provider.key}/install/callback` : callbackUrl(deps, provider.key);

/**
 * The provider's redirect back: checks state (and the browser), trades the code, verifies who
 * signed in, finds or creates the account, and parks the sign-in under a hand-off code.
 * Returns where to send the browser; failures go to the same page with `error=<reason>`.
 */
export async function completeLogin(deps: AppDeps, ctx: Context, name: string, query: URLSearchParams): Promise<string> {
  try {
    const provider = await providerOf(deps, name);
    const pending = await takeState(deps, ctx, provider, query, 'login');
    const tokens = await exchangeCode(deps, provider, provider.endpoints.tokenUrl, {
      code: query.get('code')!,
      redirectUri: redirectUri(deps, provider, 'login'),
      codeVerifier: pending.codeVerifier,
    });
    const profile = await readProfile(deps, provider, tokens, pending.nonce);
    const { user, created } = await resolveExternalAccount(deps, provider.key, profile);
    if ((await samlRequiredOrganizations(deps, user)).length > 0)
      throw new SignInError('saml_required', `${provider.key} sign-in of a member of an organization that requires SAML`);
    // The provider verified the address, so organizations whose e-mail pattern matches admit at once.
    if (created) await joinByEmailPattern(deps, user);
    if (provider.key === 'team_chat' && profile.workspaceId) await joinLinkedWorkspaces(deps, user, profile.workspaceId);
    const code = await issueHandoffCode(deps, user, `oauth:${provider.key}`, pending.returnTo);
    deps.logger.info({ user: user.uid, provider: provider.key }, 'external sign-in completed');
    return completePage(deps, { code });
  } catch (error) {
    return failurePage(deps, name, error);
  }
}

/** The stored authorization of a callback, after the provider's own error and the browser check. */
export async function takeState(deps: AppDeps, ctx: Context, provider: SignInProvider, query: URLSearchParams, purpose: 'login' | 'install') {
  const state = query.get('state') ?? '';
  const fromThisBrowser = state !== '' && browserStartedState(ctx, state);
  const pending = state ? await consumeState(deps, state, provider.key, purpose) : undefined;
  if (query.get('error')) throw new SignInError('access_denied', `${provider.key} answered ${query.get('error')!.slice(0, 60)}`);
  if (!pending) throw new SignInError('invalid_state', `${provider.key} callback with an unknown, used or expired state`);
  if (!fromThisBrowser) throw new SignInError('invalid_state', `${provider.key} callback from a browser that did not start the sign-in`);
  if (!query.get('code')) throw new SignInError('provider_error', `${provider.key} callback without a code`);
  return pending;
}

/** Logs why a sign-in failed (never a token) and answers the dashboard page with the reason. */
export function failurePage(deps: AppDeps, provider: string, error: unknown): string {
  if (error instanceof SignInError) {
    deps.logger.warn({ provider, reason: error.reason }, `external sign-in failed: ${error.message}`);
    return completePage(deps, { error: error.reason });
  }
  if ((error as { code?: string })?.code === 'NOT_FOUND') throw error;
  if ((error as { code?: string })?.code === 'RATE_LIMITED') {
    deps.logger.warn({ provider }, 'external sign-in refused: too many started from this client');
    return completePage(deps, { error: 'rate_limited' });
  }
  deps.logger.error({ provider, err: { message: (error as Error)?.message } }, 'external sign-in failed unexpectedly');
  return completePage(deps, { error: 'provider_error' });
}
