import type { AppDeps } from '../../deps.js';
import { SignInError } from './provider-error.js';
import type { SignInProvider } from './registry.js';

/** The token endpoint's answer, as far as the sign-in needs it. */
export interface ProviderTokens {
  accessToken: string;
  idToken?: string;
  /** The whole answer, for provider-specific fields (the team-chat install's `team`). */
  raw: Record<string, unknown>;
}

const TIMEOUT_MS = 10_000;

/**
 * Trades the authorization code for tokens (RFC 6749 4.1.3, with the PKCE verifier when one was
 * sent). Some providers answer errors with 200 and `error` or `ok: false`; both are failures.
 */
export async function exchangeCode(
  deps: Pick<AppDeps, 'fetch'>,
  provider: Pick<SignInProvider, 'key' | 'clientId' | 'clientSecret' | 'tokenAuth'>,
  tokenUrl: string,
  input: { code: string; redirectUri: string; codeVerifier?: string | null },
): Promise<ProviderTokens> {
  const form = new URLSearchParams({ grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri });
  if (input.codeVerifier) form.set('code_verifier', input.codeVerifier);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
    // The first code platform refuses requests without one.
    'user-agent': 'svc',
  };
  if (provider.tokenAuth === 'client_secret_basic') {
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(provider.clientId)}:${encodeURIComponent(provider.clientSecret)}`).toString('base64')}`;
  } else {
    form.set('client_id', provider.clientId);
    form.set('client_secret', provider.clientSecret);
  }
  let response: Response;
  try {
    // No redirects: a 307 would send the code and the client secret on to wherever it points.
    response = await deps.fetch(tokenUrl, { method: 'POST', headers, body: form.toString(), redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new SignInError('provider_error', `${provider.key} token endpoint unreachable: ${(error as Error).message}`);
  }
  const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!response.ok || !body || typeof body !== 'object' || body.error || body.ok === false) {
    const error = body && typeof body.error === 'string' ? body.error.slice(0, 100) : 'no usable answer';
    throw new SignInError('provider_error', `${provider.key} token endpoint answered ${response.status} (${error})`);
  }
  if (typeof body.access_token !== 'string') throw new SignInError('provider_error', `${provider.key} token endpoint returned no access token`);
  return { accessToken: body.access_token, idToken: typeof body.id_token === 'string' ? body.id_token : undefined, raw: body };
}

/** GETs a provider API with the access token; throws a SignInError on anything but JSON 200. */
export async function fetchWithToken<T>(deps: Pick<AppDeps, 'fetch'>, provider: string, url: string, accessToken: string): Promise<T> {
  let response: Response;
  try {
    response = await deps.fetch(url, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json', 'user-agent': 'svc' },
      // No redirects: the access token goes to the provider's API and nowhere else.
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new SignInError('provider_error', `${provider} API unreachable: ${(error as Error).message}`);
  }
  if (!response.ok) throw new SignInError('provider_error', `${provider} API ${new URL(url).pathname} answered ${response.status}`);
  try {
    return (await response.json()) as T;
  } catch {
    throw new SignInError('provider_error', `${provider} API ${new URL(url).pathname} did not answer JSON`);
  }
}
