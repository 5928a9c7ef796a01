import type { Context } from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateRequest } from '../../../daemon/access/authenticate.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { addMember, createOrg, mintToken } from './helpers.js';

const SECRET_COLUMNS = ['password_hash', 'totp_secret', 'totp_pending_secret', 'totp_enabled_at'];

/** Just enough of a request for authenticateRequest: its Authorization header. */
const bearer = (token: string) => ({ get: (name: string) => (name.toLowerCase() === 'authorization' ? `Bearer ${token}` : '') }) as unknown as Context;

describe.each(DATABASE_KINDS)('the account each request reads [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;

  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
    await createOrg(daemon, admin, 'acme');
  });
  afterAll(() => daemon.stop());

  it('carries whether a password and two-factor are set, never the hash or the secret', async () => {
    const { token: session, uid } = await addMember(daemon, 'acme', admin, 'ann@example.com', 'user');
    await daemon.deps.db.kysely
      .updateTable('users')
      .set({ totp_secret: 'sealed-secret', totp_pending_secret: 'sealed-pending' })
      .where('uid', '=', uid)
      .execute();
    const pat = await mintToken(daemon, session, 'acme');

    for (const [credential, slug] of [
      [session, undefined],
      [session, 'acme'],
      [pat, undefined],
    ] as const) {
      const auth = await authenticateRequest(daemon.deps, bearer(credential), slug);
      expect(auth?.user.uid).toBe(uid);
      for (const column of SECRET_COLUMNS) expect(auth?.user).not.toHaveProperty(column);
      expect(auth?.user).toMatchObject({ email: 'ann@example.com', has_password: 1, two_factor_enabled: 1 });
    }
    const me = await daemon.request('GET', '/auth/me', { token: session });
    expect(me.body).toMatchObject({ hasPassword: true, twoFactorEnabled: true });
  });

  it('an account without password or two-factor reads as such, and confirming a password reads the hash itself', async () => {
    const { token, uid } = await addMember(daemon, 'acme', admin, 'bob@example.com', 'viewer');
    expect((await daemon.request('GET', '/auth/me', { token })).body).toMatchObject({ hasPassword: true, twoFactorEnabled: false });
    const wrong = await daemon.request('POST', '/auth/password', { token, body: { currentPassword: 'not-the-password', newPassword: 'a-new-password-1' } });
    expect(wrong.status).toBe(401);
    const right = await daemon.request('POST', '/auth/password', { token, body: { currentPassword: 'password-123', newPassword: 'a-new-password-1' } });
    expect(right.status).toBeLessThan(300);

    await daemon.deps.db.kysely.updateTable('users').set({ password_hash: null }).where('uid', '=', uid).execute();
    const auth = await authenticateRequest(daemon.deps, bearer(token));
    expect(auth?.user).toMatchObject({ has_password: 0, two_factor_enabled: 0 });
    const refused = await daemon.request('POST', '/auth/password', { token, body: { currentPassword: 'a-new-password-1', newPassword: 'another-password-2' } });
    expect(refused.status).toBe(403);
  });
});
