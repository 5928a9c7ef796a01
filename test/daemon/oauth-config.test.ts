import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveEndpoints } from '../../daemon/auth/oauth/catalog.js';
import { safeReturnTo } from '../../daemon/auth/oauth/return-to.js';
import { loadConfig } from '../../daemon/config/config.js';
import { ConfigError } from '../../daemon/config/config-error.js';
import { writeParameter } from '../../daemon/parameters.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';

const dir = () => mkdtempSync(join(tmpdir(), 'svc-oauth-config-'));

describe('external sign-in configuration', () => {
  it('reads endpoint overrides under the key and the platform name, from env and file', () => {
    const cwd = dir();
    writeFileSync(
      join(cwd, 'svc.yaml'),
      'auth:\n  gitlab:\n    base_url: https://git.example.org/\n  code_host_a:\n    emails_url: https://ghe.example/api/v3/user/emails\n',
    );
    const config = loadConfig({ SVC_GITHUB_TOKEN_URL: 'https://ghe.example/login/oauth/access_token', SVC_SEARCH_PORTAL_ISSUER: 'https://idp.example' }, cwd);
    expect(config.auth.providerEndpoints).toEqual({
      code_host_a: { token_url: 'https://ghe.example/login/oauth/access_token', emails_url: 'https://ghe.example/api/v3/user/emails' },
      code_host_b: { base_url: 'https://git.example.org' },
      search_portal: { issuer: 'https://idp.example' },
    });
    const gitlab = resolveEndpoints('code_host_b', config, 'common');
    expect(gitlab).toMatchObject({
      authorizeUrl: 'https://git.example.org/oauth/authorize',
      tokenUrl: 'https://git.example.org/oauth/token',
      userinfoUrl: 'https://git.example.org/oauth/userinfo',
      issuer: 'https://git.example.org',
      jwksUrl: 'https://git.example.org/oauth/discovery/keys',
    });
  });

  it('refuses an endpoint that is not an http(s) URL, naming the variable', () => {
    expect(() => loadConfig({ SVC_DISCORD_AUTHORIZE_URL: 'ftp://x' }, dir())).toThrow(ConfigError);
    expect(() => loadConfig({ SVC_DISCORD_AUTHORIZE_URL: 'ftp://x' }, dir())).toThrow(/SVC_DISCORD_AUTHORIZE_URL/);
  });

  it('puts the tenant in the enterprise directory URLs (common when unset or empty)', () => {
    const config = loadConfig({}, dir());
    expect(resolveEndpoints('enterprise_cloud', config, 'contoso.example').authorizeUrl).toBe(
      'https://login.microsoftonline.com/contoso.example/oauth2/v2.0/authorize',
    );
    expect(resolveEndpoints('enterprise_cloud', config, 'contoso.example').tokenUrl).toBe(
      'https://login.microsoftonline.com/contoso.example/oauth2/v2.0/token',
    );
    expect(loadConfig({ SVC_ENTERPRISE_CLOUD_TENANT_ID: '' }, dir()).auth.enterpriseCloudTenantId).toBe('common');
    expect(() => loadConfig({ SVC_ENTERPRISE_CLOUD_TENANT_ID: 'not a tenant' }, dir())).toThrow(/SVC_ENTERPRISE_CLOUD_TENANT_ID/);
  });

  it('enables the generic OpenID Connect provider only with issuer, client id and secret', () => {
    const partial = loadConfig({ SVC_OIDC_ISSUER: 'https://sso.example/realms/main', SVC_OIDC_CLIENT_ID: 'svc' }, dir());
    expect(partial.auth.oidc).toBeUndefined();
    expect(partial.warnings.join('\n')).toContain('SVC_OIDC_CLIENT_SECRET');
    const full = loadConfig({ SVC_OIDC_ISSUER: 'https://sso.example/realms/main', SVC_OIDC_CLIENT_ID: 'svc', SVC_OIDC_CLIENT_SECRET: 's3cret' }, dir());
    expect(full.auth.oidc).toEqual({ issuer: 'https://sso.example/realms/main', clientId: 'svc', clientSecret: 's3cret', displayName: 'Single sign-on' });
    expect(full.warnings.join('\n')).not.toContain('s3cret');
  });

  it.each([
    ['/', '/'],
    ['/a/b?c=d#e', '/a/b?c=d#e'],
    ['', '/'],
    ['a/b', '/'],
    ['//x.example', '/'],
    ['/\\x.example', '/'],
    ['/%0d%0aSet-Cookie:x', '/%0d%0aSet-Cookie:x'],
    ['/\nx', '/'],
    ['https://x.example/', '/'],
    ['/..//evil.example', '/'],
    ['/a/../..//evil.example/x', '/'],
    ['/%2e%2e//evil.example', '/'],
    ['/a/./b/../c', '/a/c'],
  ])('returnTo %j is kept as %j', (input, expected) => {
    expect(safeReturnTo(input)).toBe(expected);
  });
});

describe.each(DATABASE_KINDS)('stored enterprise tenant [%s]', (kind) => {
  let daemon: TestDaemon;
  const env = { SVC_ENTERPRISE_CLOUD_CLIENT_ID: 'ms-client', SVC_ENTERPRISE_CLOUD_CLIENT_SECRET: 'ms-secret', SVC_ENTERPRISE_CLOUD_TENANT_ID: 'organizations' };
  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { env });
  });
  afterAll(() => daemon?.stop());

  /** Where a login redirects, without following it off this machine. */
  const loginRedirect = async (d: TestDaemon, query = '') => {
    const res = await fetch(`${d.url}/api/v1/auth/microsoft/login${query}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!);
  };
  const authorizePath = async (d: TestDaemon) => (await loginRedirect(d)).pathname;

  it('is validated at save, shown as pending, and takes effect after a restart', async () => {
    const token = await daemon.adminToken();
    const bad = await daemon.request('PUT', '/system/sign-in/enterprise-tenant', { token, body: { tenantId: 'no such tenant' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues[0].path).toBe('tenantId');
    expect(await authorizePath(daemon)).toBe('/organizations/oauth2/v2.0/authorize');

    const saved = await daemon.request('PUT', '/system/sign-in/enterprise-tenant', { token, body: { tenantId: 'contoso.example' } });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ effective: 'organizations', configured: 'organizations', override: 'contoso.example', pendingRestart: true });
    expect(await authorizePath(daemon)).toBe('/organizations/oauth2/v2.0/authorize');

    const restarted = await startTestDaemon(kind, { env, database: daemon.database });
    try {
      expect(await authorizePath(restarted)).toBe('/contoso.example/oauth2/v2.0/authorize');
      const view = await restarted.request('GET', '/system/sign-in/enterprise-tenant', { token: await restarted.login('admin@svc.local', 'admin-password-1') });
      expect(view.body).toMatchObject({ effective: 'contoso.example', pendingRestart: false });
    } finally {
      await restarted.close();
    }
    const user = await daemon.register(`plain-${kind}@example.com`);
    expect((await daemon.request('PUT', '/system/sign-in/enterprise-tenant', { token: user.token, body: { tenantId: 'common' } })).status).toBe(403);
  });

  it('a malformed stored tenant never prevents start-up: the configured one stays, with a warning', async () => {
    await writeParameter(daemon.deps, null, 'auth.enterprise_cloud.tenant_id', 'bad tenant!');
    const restarted = await startTestDaemon(kind, { env, database: daemon.database });
    try {
      expect(await authorizePath(restarted)).toBe('/organizations/oauth2/v2.0/authorize');
      expect(restarted.logs.join('\n')).toContain('stored enterprise tenant ignored');
    } finally {
      await restarted.close();
    }
  });

  it('the login redirect carries state, PKCE and nonce, and registers the callback under the key', async () => {
    const location = await loginRedirect(daemon, '?returnTo=/x');
    expect(location.searchParams.get('client_id')).toBe('ms-client');
    expect(location.searchParams.get('redirect_uri')).toBe('http://localhost:4000/api/v1/auth/enterprise_cloud/callback');
    expect(location.searchParams.get('response_type')).toBe('code');
    expect(location.searchParams.get('scope')).toBe('openid email profile');
    expect(location.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('nonce')).toBeTruthy();
    expect(location.toString()).not.toContain('ms-secret');
  });
});
