import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
// @ts-expect-error oidc-provider ships no type declarations
import Provider from 'oidc-provider';

/** A person at a test identity provider: the claims it releases about them. */
export type Account = Record<string, unknown> & { sub: string };

export interface OidcServerOptions {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  /** How the daemon authenticates at the token endpoint. */
  tokenAuth?: 'client_secret_post' | 'client_secret_basic';
  /** Extra claim names released with the `openid` scope (workspace ids, tenant ids). */
  extraClaims?: string[];
  /** Path after the origin in the issuer, `{port}`-free: e.g. `/<tenant-guid>/v2.0`. */
  issuerPath?: string;
  /** Put e-mail claims in the ID token itself (false: only the user-info endpoint has them). */
  claimsInIdToken?: boolean;
  /** Rewrites request paths before the provider sees them, e.g. tenant-prefixed endpoints. */
  rewrite?: (path: string) => string;
}

/** A real OpenID provider (oidc-provider) on loopback that signs in whoever the test says. */
export interface OidcServer {
  origin: string;
  issuer: string;
  /** Who the next authorization signs in; `deny` refuses it (access_denied). */
  next: { account?: Account; deny?: boolean };
  /** Paths the provider was asked for, after any rewrite. */
  requests: string[];
  /** Environment for the daemon: the provider's endpoints under `SVC_<KEY>_...`. */
  env(key: string): Record<string, string>;
  close(): Promise<void>;
}

/** Starts an OpenID provider on 127.0.0.1 with one confidential client. */
export async function startOidcServer(options: OidcServerOptions): Promise<OidcServer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${origin}${options.issuerPath ?? ''}`;
  const accounts = new Map<string, Account>();
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: options.tokenAuth ?? 'client_secret_post',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-cookie-key'] },
    claims: {
      openid: ['sub', ...(options.extraClaims ?? [])],
      email: ['email', 'email_verified'],
      profile: ['name'],
    },
    conformIdTokenClaims: !(options.claimsInIdToken ?? false),
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => false },
    // Explicit lifetimes keep the provider from announcing its defaults on every run.
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, id: string) {
      const account = accounts.get(id);
      return account && { accountId: id, claims: async () => account };
    },
  } as any);
  const handle = provider.callback();
  const state: OidcServer['next'] = {};
  const requests: string[] = [];

  server.on('request', async (req: IncomingMessage, res: ServerResponse) => {
    try {
      if (options.rewrite) req.url = options.rewrite(req.url ?? '/');
      requests.push((req.url ?? '').split('?')[0]);
      if (!req.url?.startsWith('/interaction/')) return handle(req, res);
      await interact(provider, req, res, state, accounts);
    } catch (error) {
      res.statusCode = 500;
      res.end(String((error as Error).message));
    }
  });

  return {
    origin,
    issuer,
    next: state,
    requests,
    env(key) {
      const prefix = `SVC_${key.toUpperCase()}_`;
      return {
        [`${prefix}CLIENT_ID`]: options.clientId,
        [`${prefix}CLIENT_SECRET`]: options.clientSecret,
        [`${prefix}AUTHORIZE_URL`]: `${origin}/auth`,
        [`${prefix}TOKEN_URL`]: `${origin}/token`,
        [`${prefix}USERINFO_URL`]: `${origin}/me`,
        [`${prefix}ISSUER`]: issuer,
        [`${prefix}JWKS_URL`]: `${origin}/jwks`,
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The login and consent prompts, answered at once for the account the test chose. */
async function interact(provider: any, req: IncomingMessage, res: ServerResponse, state: OidcServer['next'], accounts: Map<string, Account>): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (state.deny) {
    await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'the user said no' }, { mergeWithLastSubmission: false });
    return;
  }
  if (details.prompt.name === 'login') {
    if (!state.account) throw new Error('the test did not say who signs in');
    accounts.set(state.account.sub, state.account);
    await provider.interactionFinished(req, res, { login: { accountId: state.account.sub } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
  const missing = details.prompt.details;
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}
