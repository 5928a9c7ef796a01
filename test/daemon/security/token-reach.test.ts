import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

/** A super admin's personal access token never acts as the super admin, nor changes the password. */
describe.each(DATABASE_KINDS)('personal access tokens stay out of server administration and the password [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  let victim: { uid: string };
  let tokens: Record<'api' | 'api:read', string>;

  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
    victim = await daemon.register('bystander@example.com');
    const mint = async (scope: string) =>
      (await daemon.request('POST', '/auth/tokens', { token: admin, body: { name: scope, org: 'default', scopes: [scope] } })).body.token as string;
    tokens = { api: await mint('api'), 'api:read': await mint('api:read') };
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  it.each(['api', 'api:read'] as const)('a %s token reads no /system route', async (scope) => {
    for (const path of ['/system/users', '/system/hashing', '/system/sign-in/enterprise-tenant']) {
      const res = await daemon.request('GET', path, { token: tokens[scope] });
      expect(res.status, path).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    // The token itself still works where it may.
    expect((await daemon.request('GET', '/orgs/default', { token: tokens[scope] })).status).toBe(200);
  });

  it('an api token changes no address, issues no reset link, writes no policy and no password', async () => {
    const token = tokens.api;
    expect((await daemon.request('PATCH', `/system/users/${victim.uid}`, { token, body: { email: 'mine@example.com' } })).status).toBe(403);
    const reset = await daemon.request('POST', `/system/users/${victim.uid}/password-reset`, { token });
    expect(reset.status).toBe(403);
    expect(reset.body.url).toBeUndefined();
    expect((await daemon.request('PUT', '/system/hashing', { token, body: { algorithm: 'bcrypt' } })).status).toBe(403);
    const password = await daemon.request('POST', '/auth/password', { token, body: { currentPassword: 'admin-password-1', newPassword: 'taken-over-123' } });
    expect(password.status).toBe(403);
    const users = (await daemon.request('GET', '/system/users', { token: admin })).body;
    expect(JSON.stringify(users)).toContain('bystander@example.com');
    expect(JSON.stringify(users)).not.toContain('mine@example.com');
    await daemon.login('admin@svc.local', 'admin-password-1');
  });

  it('the super admin’s session still does all of it', async () => {
    expect((await daemon.request('GET', '/system/users', { token: admin })).status).toBe(200);
    expect((await daemon.request('GET', '/system/hashing', { token: admin })).status).toBe(200);
  });
});
