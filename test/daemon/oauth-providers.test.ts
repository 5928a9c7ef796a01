import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { freePort } from '../support/oauth/browser.js';
import { startTestProviders, TEST_TENANT, type TestProviders } from '../support/oauth/providers.js';
import { browserSignIn, signInAndExchange } from '../support/oauth/sign-in.js';

describe.each(DATABASE_KINDS)('external sign-in providers [%s]', (kind) => {
  let daemon: TestDaemon;
  let providers: TestProviders;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    providers = await startTestProviders(base);
    daemon = await startTestDaemon(kind, { env: { SVC_LISTEN: `127.0.0.1:${port}`, SVC_BASE_URL: base, ...providers.env } });
  });
  afterAll(async () => {
    await daemon?.stop();
    await providers?.close();
  });

  /** Signs in, exchanges the code, and proves the session with GET /auth/me. */
  async function roundTrip(provider: string, returnTo = '/checks?view=all') {
    const { landing, exchange } = await signInAndExchange(daemon, provider, { returnTo });
    expect(landing.url.origin + landing.url.pathname).toBe(`${base}/d/auth/complete`);
    expect([...landing.url.searchParams.keys()]).toEqual(['code']);
    expect(exchange.status).toBe(200);
    expect(exchange.body).toMatchObject({ tokenType: 'Bearer', returnTo });
    const me = await daemon.request('GET', '/auth/me', { token: exchange.body.accessToken });
    expect(me.status).toBe(200);
    return me.body;
  }

  it('lists the enabled providers, the generic one last', async () => {
    const res = await daemon.request('GET', '/auth/providers');
    expect(res.status).toBe(200);
    expect(res.body.map((p: { key: string }) => p.key)).toEqual([
      'search_portal',
      'code_host_a',
      'code_host_b',
      'enterprise_cloud',
      'team_chat',
      'game_chat',
      'oidc',
    ]);
    expect(res.body.at(-1)).toEqual({ key: 'oidc', kind: 'OpenID Connect provider', displayName: 'Company SSO' });
  });

  it('search_portal (OpenID Connect): creates a password-less account from a verified e-mail', async () => {
    providers.searchPortal.next.account = { sub: 'g-1001', email: 'Gina@Example.com', email_verified: true, name: 'Gina' };
    const me = await roundTrip('search_portal');
    expect(me).toMatchObject({ email: 'gina@example.com', name: 'Gina', hasPassword: false, emailVerified: true, twoFactorEnabled: false });
  });

  it('code_host_a: takes the verified primary address from the e-mail list, with PKCE', async () => {
    providers.codeHostA.next.user = {
      profile: { id: 4242, login: 'octo', name: 'Octo Cat', email: 'public@example.com' },
      emails: [
        { email: 'unverified@example.com', primary: false, verified: false },
        { email: 'octo@example.com', primary: true, verified: true },
      ],
    };
    const me = await roundTrip('code_host_a');
    expect(me).toMatchObject({ email: 'octo@example.com', name: 'Octo Cat', hasPassword: false });
    const auth = providers.codeHostA.lastAuthorize!;
    expect(auth.get('code_challenge_method')).toBe('S256');
    expect(auth.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(auth.get('redirect_uri')).toBe(`${base}/api/v1/auth/code_host_a/callback`);
    expect(providers.codeHostA.lastTokenForm!.get('code_verifier')).toBeTruthy();
  });

  it('code_host_b: scopes read_user openid, a verified ID token, endpoints moved by the base URL', async () => {
    providers.codeHostB.next.user = { subject: '77', profile: { sub: '77', email: 'lab@example.com', email_verified: true, name: 'Lab User' } };
    const me = await roundTrip('code_host_b');
    expect(me).toMatchObject({ email: 'lab@example.com', name: 'Lab User' });
    expect(providers.codeHostB.lastAuthorize!.get('scope')).toBe('read_user openid');
    expect(providers.codeHostB.lastAuthorize!.get('nonce')).toBeTruthy();
  });

  it('enterprise_cloud: the tenant is in the authorize and token URLs and the issuer names it', async () => {
    providers.enterpriseCloud.next.account = { sub: 'ms-1', tid: TEST_TENANT, email: 'eve@contoso.example', xms_edov: true, name: 'Eve' };
    const me = await roundTrip('enterprise_cloud');
    expect(me).toMatchObject({ email: 'eve@contoso.example', name: 'Eve' });
    expect(providers.enterpriseRawPaths).toContain(`/${TEST_TENANT}/oauth2/v2.0/authorize`);
    expect(providers.enterpriseRawPaths).toContain(`/${TEST_TENANT}/oauth2/v2.0/token`);
  });

  it('enterprise_cloud: an e-mail the directory does not vouch for creates nothing', async () => {
    providers.enterpriseCloud.next.account = { sub: 'ms-2', tid: TEST_TENANT, email: 'ceo@victim.example', name: 'Mallory' };
    const landing = await browserSignIn(daemon, 'enterprise_cloud');
    expect(landing.error).toBe('email_not_verified');
    expect(landing.code).toBeUndefined();
  });

  it('enterprise_cloud: a token naming another tenant is refused', async () => {
    providers.enterpriseCloud.next.account = { sub: 'ms-3', tid: '11111111-2222-4333-8444-555555555555', email: 'x@other.example', xms_edov: true };
    expect((await browserSignIn(daemon, 'enterprise_cloud')).error).toBe('provider_error');
  });

  it('a refusal at an OpenID provider lands with access_denied', async () => {
    providers.searchPortal.next.deny = true;
    try {
      expect((await browserSignIn(daemon, 'google')).error).toBe('access_denied');
    } finally {
      providers.searchPortal.next.deny = false;
    }
  });

  it('team_chat: OpenID sign-in carries the workspace claim', async () => {
    providers.teamChat.next.account = { sub: 'U123', 'https://slack.com/team_id': 'T999', email: 'tess@example.com', email_verified: true, name: 'Tess' };
    const me = await roundTrip('team_chat');
    expect(me).toMatchObject({ email: 'tess@example.com' });
    const identity = await daemon.deps.db.kysely.selectFrom('linked_identities').selectAll().where('provider', '=', 'team_chat').executeTakeFirstOrThrow();
    expect(identity.subject).toBe('T999/U123');
  });

  it('game_chat: a verified account e-mail', async () => {
    providers.gameChat.next.user = {
      profile: { id: '80351110224678912', username: 'nelly', global_name: 'Nelly', email: 'nelly@example.com', verified: true },
    };
    const me = await roundTrip('game_chat');
    expect(me).toMatchObject({ email: 'nelly@example.com', name: 'Nelly' });
  });

  it('generic oidc: endpoints from discovery, e-mail from user-info, client_secret_basic', async () => {
    providers.genericOidc.next.account = { sub: 'kc-5', email: 'kim@corp.example', email_verified: true, name: 'Kim' };
    const me = await roundTrip('oidc');
    expect(me).toMatchObject({ email: 'kim@corp.example', name: 'Kim' });
    expect(providers.genericOidc.requests).toContain('/.well-known/openid-configuration');
    expect(providers.genericOidc.requests).toContain('/me');
  });
});
