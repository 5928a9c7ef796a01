import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../daemon/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestDaemon, type TestDaemon } from '../support/daemon.js';

describe.each(DATABASE_KINDS)('sign-in [%s]', (kind) => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { env: { SVC_AUTH_LOGIN_RATE_LIMIT: '5' } });
  });
  afterAll(() => daemon.stop());

  it('answers health with the database kind', async () => {
    const res = await daemon.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', database: kind });
  });

  it('creates organization default and the super admin on first start, who must change the password', async () => {
    const token = await daemon.login(ADMIN_EMAIL, 'svc-admin');
    const me = await daemon.request('GET', '/auth/me', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: ADMIN_EMAIL, superAdmin: true, mustChangePassword: true, hasPassword: true });
    expect(me.body.organizations).toEqual([{ slug: 'default', name: 'Default', role: 'owner' }]);
    const blocked = await daemon.request('GET', '/system/hashing', { token });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.code).toBe('PASSWORD_CHANGE_REQUIRED');
    const changed = await daemon.request('POST', '/auth/password', { token, body: { currentPassword: 'svc-admin', newPassword: ADMIN_PASSWORD } });
    expect(changed.status).toBe(204);
    expect((await daemon.request('GET', '/system/hashing', { token })).status).toBe(200);
    expect((await daemon.request('GET', '/auth/me', { token })).body.mustChangePassword).toBe(false);
  });

  it('registers, signs in, and signs out server-side', async () => {
    const reg = await daemon.request('POST', '/auth/register', { body: { email: 'Ann@Example.com', password: 'correct horse', name: 'Ann' } });
    expect(reg.status).toBe(201);
    expect(reg.body.user).toMatchObject({ email: 'ann@example.com', name: 'Ann', emailVerified: false, superAdmin: false });
    const again = await daemon.request('POST', '/auth/register', { body: { email: 'ann@EXAMPLE.com', password: 'correct horse' } });
    expect(again.status).toBe(409);
    expect(again.body.error.details.reason).toBe('EMAIL_TAKEN');

    const login = await daemon.request('POST', '/auth/login', { body: { email: 'ann@example.com', password: 'correct horse' } });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ tokenType: 'Bearer', user: { email: 'ann@example.com' } });
    const token = login.body.accessToken;
    expect((await daemon.request('GET', '/auth/me', { token })).status).toBe(200);
    expect((await daemon.request('POST', '/auth/logout', { token })).status).toBe(204);
    const after = await daemon.request('GET', '/auth/me', { token });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('UNAUTHORIZED');
  });

  it('answers a public route alike with or without a stale bearer: public routes never authenticate', async () => {
    await daemon.request('POST', '/auth/register', { body: { email: 'stale@example.com', password: 'stale bearer ok' } });
    const first = await daemon.request('POST', '/auth/login', { body: { email: 'stale@example.com', password: 'stale bearer ok' } });
    const stale = first.body.accessToken;
    expect((await daemon.request('POST', '/auth/logout', { token: stale })).status).toBe(204);
    expect((await daemon.request('GET', '/auth/me', { token: stale })).status).toBe(401);
    for (const token of [stale, 'svc_pat_not-a-token', 'garbage']) {
      const login = await daemon.request('POST', '/auth/login', { token, body: { email: 'stale@example.com', password: 'stale bearer ok' } });
      expect(login.status).toBe(200);
      expect(login.body.user).toMatchObject({ email: 'stale@example.com' });
      expect((await daemon.request('GET', '/health', { token })).status).toBe(200);
    }
  });

  it('validates bodies and lists every problem', async () => {
    const res = await daemon.request('POST', '/auth/register', { body: { email: 'not-an-email', password: 'short' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(['email', 'password']);
    const broken = await daemon.request('POST', '/auth/login', { raw: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
  });

  it('answers an unknown e-mail and a wrong password identically', async () => {
    await daemon.register('bob@example.com', 'bobs password');
    const wrong = await daemon.request('POST', '/auth/login', { body: { email: 'bob@example.com', password: 'nope nope' } });
    const unknown = await daemon.request('POST', '/auth/login', { body: { email: 'nobody@example.com', password: 'nope nope' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('rate-limits failed sign-ins per e-mail address with Retry-After', async () => {
    await daemon.register('carol@example.com', 'carols password');
    for (let i = 0; i < 5; i++) {
      expect((await daemon.request('POST', '/auth/login', { body: { email: 'carol@example.com', password: 'wrong one' } })).status).toBe(401);
    }
    const limited = await daemon.request('POST', '/auth/login', { body: { email: 'carol@example.com', password: 'carols password' } });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const counted = await daemon.deps.db.kysely.selectFrom('rate_limits').selectAll().where('key', '=', 'login:email:carol@example.com').executeTakeFirst();
    expect(counted?.count).toBe(5);
  });

  it('a password change signs out the other sessions but keeps the current one', async () => {
    const { token: first } = await daemon.register('dan@example.com', 'dans password');
    const second = await daemon.login('dan@example.com', 'dans password');
    const wrong = await daemon.request('POST', '/auth/password', {
      token: first,
      body: { currentPassword: 'not it at all', newPassword: 'dans new password' },
    });
    expect(wrong.status).toBe(401);
    const res = await daemon.request('POST', '/auth/password', { token: first, body: { currentPassword: 'dans password', newPassword: 'dans new password' } });
    expect(res.status).toBe(204);
    expect((await daemon.request('GET', '/auth/me', { token: first })).status).toBe(200);
    expect((await daemon.request('GET', '/auth/me', { token: second })).status).toBe(401);
    await daemon.login('dan@example.com', 'dans new password');
  });

  it('refuses malformed, tampered and missing tokens with 401', async () => {
    const token = await daemon.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const tampered = token.slice(0, -3) + (token.endsWith('AAA') ? 'BBB' : 'AAA');
    for (const bad of [tampered, 'garbage', 'svc_pat_nope']) {
      const res = await daemon.request('GET', '/auth/me', { token: bad });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
    expect((await daemon.request('GET', '/auth/me')).status).toBe(401);
    expect((await daemon.request('GET', '/auth/me', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
  });

  it('accepts a session signature only in its canonical base64url form', async () => {
    const token = await daemon.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect((await daemon.request('GET', '/auth/me', { token })).status).toBe(200);
    const [header, payload, signature] = token.split('.');
    const bytes = Buffer.from(signature, 'base64url');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // The last of 43 characters carries two unused bits: setting one decodes to the same bytes.
    const last = alphabet.indexOf(signature.at(-1)!);
    const strayBits = signature.slice(0, -1) + alphabet[last ^ 1];
    expect(Buffer.from(strayBits, 'base64url').equals(bytes)).toBe(true);
    for (const variant of [`${signature}=`, bytes.toString('base64'), strayBits]) {
      if (variant === signature) continue;
      const res = await daemon.request('GET', '/auth/me', { token: `${header}.${payload}.${variant}` });
      expect(res.status, variant).toBe(401);
    }
  });

  it('never writes a password or token to the log', async () => {
    const text = daemon.logs.join('\n');
    for (const secret of ['correct horse', 'dans new password', ADMIN_PASSWORD]) expect(text).not.toContain(secret);
  });
});

describe.each(DATABASE_KINDS)('session lifetime [%s]', (kind) => {
  it('a session expires after SVC_AUTH_SESSION_TTL (injected clock)', async () => {
    const clock = manualClock(new Date());
    const daemon = await startTestDaemon(kind, { clock, env: { SVC_AUTH_SESSION_TTL: '1h' } });
    try {
      const { token } = await daemon.register('eve@example.com');
      expect((await daemon.request('GET', '/auth/me', { token })).status).toBe(200);
      clock.advance(3601_000);
      expect((await daemon.request('GET', '/auth/me', { token })).status).toBe(401);
    } finally {
      await daemon.stop();
    }
  });
});
