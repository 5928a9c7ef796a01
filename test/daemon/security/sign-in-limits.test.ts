import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

const code = (secret: string) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();
const statuses = (responses: { status: number }[]) => {
  const counts: Record<number, number> = {};
  for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
};

/** Each attempt is reserved in the database before the slow work, so parallel attempts cannot all slip under a limit. */
describe.each(DATABASE_KINDS)('rate limits are reserved before the work [%s]', (kind) => {
  let daemon: TestDaemon;

  beforeAll(async () => {
    // A hash slow enough that the parallel attempts overlap, as they do in production.
    daemon = await startTestDaemon(kind, { env: { SVC_AUTH_LOGIN_RATE_LIMIT: '10', SVC_TRUST_PROXY: '127.0.0.1', SVC_AUTH_PASSWORD_ARGON2_TIME: '8' } });
  });
  afterAll(() => daemon?.stop());

  it('40 parallel wrong passwords: at most 10 are tried, the rest answer 429', async () => {
    await daemon.register('parallel@example.com', 'right-password-1');
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => daemon.request('POST', '/auth/login', { body: { email: 'parallel@example.com', password: 'wrong-password' } })),
    );
    const seen = statuses(answers);
    expect(seen[401]).toBe(10);
    expect(seen[429]).toBe(30);
    expect(answers.find((a) => a.status === 429)!.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('20 parallel wrong two-factor codes: at most 5 are checked', async () => {
    const { token } = await daemon.register('parallel-2fa@example.com', 'right-password-1');
    const secret = (await daemon.request('POST', '/auth/2fa/setup', { token })).body.secret as string;
    expect((await daemon.request('POST', '/auth/2fa/confirm', { token, body: { code: code(secret) } })).status).toBe(200);
    const mfaToken = (await daemon.request('POST', '/auth/login', { body: { email: 'parallel-2fa@example.com', password: 'right-password-1' } })).body.mfaToken;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => daemon.request('POST', '/auth/2fa/verify', { body: { mfaToken, recoveryCode: 'aaaaa-bbbbb' } })),
    );
    expect(statuses(answers)).toEqual({ 401: 5, 429: 15 });
  });

  it('20 parallel reset requests for one address: at most 5 go through', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => daemon.request('POST', '/auth/password-reset', { body: { email: 'reset-burst@example.com' } })),
    );
    expect(statuses(answers)).toEqual({ 202: 5, 429: 15 });
  });

  it('40 parallel bad verification tokens from one client: at most 20 are tried', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        daemon.request('POST', '/auth/verify-email', { body: { token: `guess-${i}` }, headers: { 'x-forwarded-for': '192.0.2.44' } }),
      ),
    );
    expect(statuses(answers)).toEqual({ 400: 20, 429: 20 });
  });
});

/** One client's failures lock the account for that client only; a slower limit covers the account from everywhere. */
describe.each(DATABASE_KINDS)('nobody can lock anyone out [%s]', (kind) => {
  let daemon: TestDaemon;
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const login = (email: string, password: string, client: string) =>
    daemon.request('POST', '/auth/login', { body: { email, password }, headers: from(client) });

  beforeAll(async () => {
    daemon = await startTestDaemon(kind, {
      env: { SVC_AUTH_LOGIN_RATE_LIMIT: '5', SVC_AUTH_LOGIN_RATE_LIMIT_PER_ACCOUNT: '12', SVC_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' },
    });
  });
  afterAll(() => daemon?.stop());

  it("an attacker's wrong passwords lock only the attacker's client", async () => {
    await daemon.register('target@example.com', 'target-password-1');
    for (let i = 0; i < 5; i++) expect((await login('target@example.com', 'guess-password', '203.0.113.7')).status).toBe(401);
    expect((await login('target@example.com', 'guess-password', '203.0.113.7')).status).toBe(429);
    expect((await login('target@example.com', 'target-password-1', '203.0.113.7')).status).toBe(429);
    // The owner, from elsewhere, signs in; the session records the real client address.
    const owner = await login('target@example.com', 'target-password-1', '198.51.100.9');
    expect(owner.status).toBe(200);
    const sessions = await daemon.request('GET', '/auth/sessions', { token: owner.body.accessToken });
    expect(sessions.body.items[0].clientAddress).toBe('198.51.100.9');
  });

  it('only the hops of trusted proxies are believed: a spoofed left-hand entry is ignored', async () => {
    await daemon.register('spoof@example.com', 'spoof-password-1');
    for (let i = 0; i < 5; i++) expect((await login('spoof@example.com', 'guess-password', `198.18.0.${i}, 203.0.113.50, 10.1.2.3`)).status).toBe(401);
    expect((await login('spoof@example.com', 'guess-password', '198.18.9.9, 203.0.113.50')).status).toBe(429);
  });

  it('many clients together reach the slower account-wide back-off', async () => {
    await daemon.register('spread@example.com', 'spread-password-1');
    for (const client of ['203.0.113.1', '203.0.113.2']) {
      for (let i = 0; i < 5; i++) expect((await login('spread@example.com', 'guess-password', client)).status).toBe(401);
    }
    expect((await login('spread@example.com', 'guess-password', '203.0.113.3')).status).toBe(401);
    expect((await login('spread@example.com', 'guess-password', '203.0.113.3')).status).toBe(401);
    expect((await login('spread@example.com', 'spread-password-1', '203.0.113.4')).status).toBe(429);
  });

  it('logs failed sign-ins and lockouts, never the password', async () => {
    const text = daemon.logs.join('\n');
    expect(text).toContain('failed sign-in');
    expect(text).toContain('sign-in locked: too many failed attempts');
    expect(daemon.logs.some((line) => line.includes('sign-in locked') && line.includes('203.0.113.7') && line.includes('account and client'))).toBe(true);
    expect(text).not.toContain('guess-password');
    expect(text).not.toContain('target-password-1');
  });
});

describe.each(DATABASE_KINDS)('without SVC_TRUST_PROXY, X-Forwarded-For is ignored [%s]', (kind) => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { env: { SVC_AUTH_LOGIN_RATE_LIMIT: '3' } });
  });
  afterAll(() => daemon?.stop());

  it('a client cannot escape its limit by naming other addresses', async () => {
    await daemon.register('plain@example.com', 'plain-password-1');
    for (let i = 0; i < 3; i++) {
      const res = await daemon.request('POST', '/auth/login', {
        body: { email: 'plain@example.com', password: 'nope-nope' },
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
      });
      expect(res.status).toBe(401);
    }
    const res = await daemon.request('POST', '/auth/login', {
      body: { email: 'plain@example.com', password: 'nope-nope' },
      headers: { 'x-forwarded-for': '203.0.113.99' },
    });
    expect(res.status).toBe(429);
  });
});
