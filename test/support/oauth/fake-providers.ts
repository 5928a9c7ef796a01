import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/** The providers spoken by these fakes (the OpenID kinds use oidc-provider instead). */
export type FakeKind = 'code_host_a' | 'code_host_b' | 'game_chat' | 'team_chat_install';

/** A person at a fake provider: what its user API answers about them. */
export interface FakeUser {
  /** What the user endpoint answers (code_host_a `/user`, code_host_b `/oauth/userinfo`, game_chat `/users/@me`). */
  profile: Record<string, unknown>;
  /** code_host_a: the `/user/emails` list. */
  emails?: { email: string; primary: boolean; verified: boolean }[];
  /** code_host_b: the ID token's subject. team_chat_install: the `oauth.v2.access` answer. */
  subject?: string;
  install?: Record<string, unknown>;
}

const PATHS: Record<FakeKind, { authorize: string; token: string; user?: string; emails?: string }> = {
  code_host_a: { authorize: '/login/oauth/authorize', token: '/login/oauth/access_token', user: '/user', emails: '/user/emails' },
  code_host_b: { authorize: '/oauth/authorize', token: '/oauth/token', user: '/oauth/userinfo' },
  game_chat: { authorize: '/oauth2/authorize', token: '/api/oauth2/token', user: '/api/users/@me' },
  team_chat_install: { authorize: '/oauth/v2/authorize', token: '/api/oauth.v2.access' },
};

export interface FakeProvider {
  origin: string;
  next: { user?: FakeUser; deny?: boolean };
  /** The query of the last authorization request (scopes, PKCE challenge, state...). */
  lastAuthorize?: URLSearchParams;
  /** The form of the last token request. */
  lastTokenForm?: URLSearchParams;
  /** Environment for the daemon: client and endpoints under the provider's key. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

interface Grant {
  user: FakeUser;
  redirectUri: string;
  challenge?: string;
  nonce?: string;
}

/**
 * A small HTTP server speaking a provider's authorization, token and user APIs the way the real
 * platform does (form-encoded token requests, JSON answers, errors with 200 where the platform
 * does so), checking client credentials, redirect URI and PKCE.
 */
export async function startFakeProvider(kind: FakeKind, client: { clientId: string; clientSecret: string }): Promise<FakeProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const paths = PATHS[kind];
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, FakeUser>();
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const fake: FakeProvider = {
    origin,
    next: {},
    env(): Record<string, string> {
      if (kind === 'code_host_b')
        return { SVC_CODE_HOST_B_CLIENT_ID: client.clientId, SVC_CODE_HOST_B_CLIENT_SECRET: client.clientSecret, SVC_CODE_HOST_B_BASE_URL: origin };
      if (kind === 'team_chat_install')
        return { SVC_TEAM_CHAT_INSTALL_AUTHORIZE_URL: `${origin}${paths.authorize}`, SVC_TEAM_CHAT_INSTALL_TOKEN_URL: `${origin}${paths.token}` };
      const prefix = `SVC_${kind.toUpperCase()}_`;
      return {
        [`${prefix}CLIENT_ID`]: client.clientId,
        [`${prefix}CLIENT_SECRET`]: client.clientSecret,
        [`${prefix}AUTHORIZE_URL`]: `${origin}${paths.authorize}`,
        [`${prefix}TOKEN_URL`]: `${origin}${paths.token}`,
        [`${prefix}USERINFO_URL`]: `${origin}${paths.user}`,
        ...(paths.emails ? { [`${prefix}EMAILS_URL`]: `${origin}${paths.emails}` } : {}),
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const tokenError = (res: ServerResponse, error: string) =>
    // The first code platform and the chat install answer OAuth errors with 200.
    kind === 'code_host_a' ? json(res, 200, { error }) : kind === 'team_chat_install' ? json(res, 200, { ok: false, error }) : json(res, 400, { error });

  server.on('request', async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname === paths.authorize) {
      fake.lastAuthorize = url.searchParams;
      const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
      const state = url.searchParams.get('state') ?? '';
      if (url.searchParams.get('client_id') !== client.clientId) return json(res, 400, { error: 'unknown client' });
      if (fake.next.deny || !fake.next.user) {
        redirect.searchParams.set('error', 'access_denied');
      } else {
        const code = randomBytes(16).toString('hex');
        codes.set(code, {
          user: fake.next.user,
          redirectUri: redirect.toString(),
          challenge: url.searchParams.get('code_challenge') ?? undefined,
          nonce: url.searchParams.get('nonce') ?? undefined,
        });
        redirect.searchParams.set('code', code);
      }
      redirect.searchParams.set('state', state);
      res.writeHead(302, { location: redirect.toString() });
      return res.end();
    }
    if (url.pathname === paths.token && req.method === 'POST') {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const form = new URLSearchParams(raw);
      fake.lastTokenForm = form;
      if (form.get('client_id') !== client.clientId || form.get('client_secret') !== client.clientSecret) return tokenError(res, 'invalid_client');
      const grant = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (!grant || grant.redirectUri !== form.get('redirect_uri')) return tokenError(res, 'invalid_grant');
      if (grant.challenge) {
        const verifier = form.get('code_verifier') ?? '';
        if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) return tokenError(res, 'invalid_grant');
      }
      const accessToken = randomBytes(16).toString('hex');
      tokens.set(accessToken, grant.user);
      if (kind === 'team_chat_install') return json(res, 200, { ok: true, access_token: `xoxb-${accessToken}`, token_type: 'bot', ...grant.user.install });
      const body: Record<string, unknown> = { access_token: accessToken, token_type: 'bearer', scope: 'granted' };
      if (kind === 'code_host_b') {
        body.id_token = await new SignJWT({ nonce: grant.nonce })
          .setProtectedHeader({ alg: 'RS256', kid: 'fake-key' })
          .setIssuer(origin)
          .setAudience(client.clientId)
          .setSubject(grant.user.subject ?? String(grant.user.profile.sub))
          .setIssuedAt()
          .setExpirationTime('2m')
          .sign(privateKey);
      }
      return json(res, 200, body);
    }
    if (kind === 'code_host_b' && url.pathname === '/oauth/discovery/keys') {
      return json(res, 200, { keys: [{ ...(await exportJWK(publicKey)), kid: 'fake-key', alg: 'RS256', use: 'sig' }] });
    }
    const user = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /i, ''));
    if ((url.pathname === paths.user || url.pathname === paths.emails) && !user) return json(res, 401, { message: 'Bad credentials' });
    if (url.pathname === paths.user) return json(res, 200, user!.profile);
    if (url.pathname === paths.emails) return json(res, 200, user!.emails ?? []);
    json(res, 404, { message: 'Not Found' });
  });
  return fake;
}
