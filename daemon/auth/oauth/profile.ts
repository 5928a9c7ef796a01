import type { JWTPayload } from 'jose';
import type { AppDeps } from '../../deps.js';
import type { ExternalProfile } from './catalog.js';
import { verifyIdToken } from './id-token.js';
import { SignInError } from './provider-error.js';
import type { SignInProvider } from './registry.js';
import { fetchWithToken, type ProviderTokens } from './token-exchange.js';

type Deps = Pick<AppDeps, 'fetch' | 'clock' | 'caches'>;

/** The team-chat platform's claim carrying the workspace ID. */
export const TEAM_CHAT_WORKSPACE_CLAIM = 'https://slack.com/team_id';

const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
// Some providers send the flag as the text "true".
const isTrue = (value: unknown): boolean => value === true || value === 'true';

/** Who signed in, from the tokens: verified ID token claims or the provider's user API. */
export async function readProfile(deps: Deps, provider: SignInProvider, tokens: ProviderTokens, nonce: string | null): Promise<ExternalProfile> {
  if (provider.protocol === 'oidc') return readOidcProfile(deps, provider, tokens, nonce);
  if (provider.key === 'code_host_a') return readCodeHostAProfile(deps, provider, tokens);
  if (provider.key === 'game_chat') return readGameChatProfile(deps, provider, tokens);
  throw new SignInError('provider_error', `no profile reader for ${provider.key}`);
}

async function readOidcProfile(deps: Deps, provider: SignInProvider, tokens: ProviderTokens, nonce: string | null): Promise<ExternalProfile> {
  if (!tokens.idToken) throw new SignInError('provider_error', `${provider.key} returned no ID token`);
  let claims: JWTPayload = await verifyIdToken(deps, provider, tokens.idToken, nonce);
  // Many providers keep the e-mail out of the ID token of a code flow; the user-info endpoint has it.
  if (!str(claims.email) && provider.endpoints.userinfoUrl) {
    const info = await fetchWithToken<Record<string, unknown>>(deps, provider.key, provider.endpoints.userinfoUrl, tokens.accessToken);
    if (info.sub !== claims.sub) throw new SignInError('provider_error', `${provider.key} user-info is about another subject`);
    claims = { ...info, ...claims, email: info.email, email_verified: info.email_verified };
  }
  const subject = str(claims.sub)!;
  const workspaceId = provider.key === 'team_chat' ? str(claims[TEAM_CHAT_WORKSPACE_CLAIM]) : undefined;
  return {
    // Team-chat user ids are only unique within their workspace.
    subject: workspaceId ? `${workspaceId}/${subject}` : subject,
    email: str(claims.email),
    emailVerified: emailVerified(provider, claims),
    name: str(claims.name) ?? str(claims.preferred_username),
    workspaceId,
  };
}

/**
 * Whether the provider vouches for the e-mail. The enterprise directory's `email` claim is
 * editable by tenant admins, so it counts only with `email_verified` or the domain-owner flag.
 */
function emailVerified(provider: SignInProvider, claims: JWTPayload): boolean {
  if (provider.key === 'enterprise_cloud') return isTrue(claims.email_verified) || isTrue(claims.xms_edov);
  return isTrue(claims.email_verified);
}

async function readCodeHostAProfile(deps: Deps, provider: SignInProvider, tokens: ProviderTokens): Promise<ExternalProfile> {
  const { userinfoUrl, emailsUrl } = provider.endpoints;
  const user = await fetchWithToken<{ id?: number | string; login?: string; name?: string | null }>(deps, provider.key, userinfoUrl!, tokens.accessToken);
  if (user.id === undefined || user.id === null) throw new SignInError('provider_error', `${provider.key} user API returned no id`);
  // The profile e-mail may be unverified; only the e-mail list says which ones are.
  const emails = await fetchWithToken<{ email?: string; primary?: boolean; verified?: boolean }[]>(deps, provider.key, emailsUrl!, tokens.accessToken);
  const verified = Array.isArray(emails) ? emails.filter((e) => e.verified === true && str(e.email)) : [];
  const chosen = verified.find((e) => e.primary) ?? verified[0];
  return { subject: String(user.id), email: chosen?.email, emailVerified: Boolean(chosen), name: str(user.name) ?? str(user.login) };
}

async function readGameChatProfile(deps: Deps, provider: SignInProvider, tokens: ProviderTokens): Promise<ExternalProfile> {
  const user = await fetchWithToken<{ id?: string; username?: string; global_name?: string | null; email?: string | null; verified?: boolean }>(
    deps,
    provider.key,
    provider.endpoints.userinfoUrl!,
    tokens.accessToken,
  );
  if (!str(user.id)) throw new SignInError('provider_error', `${provider.key} user API returned no id`);
  return {
    subject: user.id!,
    email: str(user.email),
    emailVerified: user.verified === true && Boolean(str(user.email)),
    name: str(user.global_name) ?? str(user.username),
  };
}
