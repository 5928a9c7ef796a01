import { execFileSync } from 'node:child_process';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../daemon/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { hasTool } from '../support/required-tool.js';

const OATHTOOL = '/usr/bin/oathtool';

/** A code from otpauth, an implementation independent of the daemon's. */
const otpauthCode = (secret: string, at: Date) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at.getTime() });

const hasOathtool = hasTool(OATHTOOL, 'oathtool', 'the reference TOTP codes');

/** A code from Debian's oathtool (the reference C implementation), or otpauth when it is missing (never under CI). */
function oathtoolCode(secret: string, at: Date): string {
  if (!hasOathtool) return otpauthCode(secret, at);
  return execFileSync(OATHTOOL, ['--totp', '-b', secret, '--now', `@${Math.floor(at.getTime() / 1000)}`], { encoding: 'utf8' }).trim();
}

describe.each(DATABASE_KINDS)('two-factor sign-in (TOTP) [%s]', (kind) => {
  let daemon: TestDaemon;
  // Mid-step, so ±1 step is unambiguous.
  const start = new Date(Math.floor(Date.now() / 30_000) * 30_000 + 10_000);
  const clock = manualClock(start);
  let people = 0;

  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { clock });
  });
  afterAll(() => daemon?.stop());

  /** A registered account with 2FA enrolled; the clock moves two steps on, so the step before now is unused. */
  async function enrolled() {
    people += 1;
    const email = `otp${people}-${kind}@example.com`;
    const password = 'otp password 1';
    const { token } = await daemon.register(email, password);
    const setup = await daemon.request('POST', '/auth/2fa/setup', { token });
    expect(setup.status).toBe(200);
    const secret = setup.body.secret as string;
    const confirm = await daemon.request('POST', '/auth/2fa/confirm', { token, body: { code: otpauthCode(secret, clock.now()) } });
    expect(confirm.status).toBe(200);
    clock.advance(60_000);
    return { email, password, token, secret, recoveryCodes: confirm.body.recoveryCodes as string[] };
  }

  async function challenge(email: string, password: string): Promise<string> {
    const res = await daemon.request('POST', '/auth/login', { body: { email, password } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ mfaRequired: true, mfaToken: expect.any(String) });
    return res.body.mfaToken;
  }

  const verify = (body: Record<string, string>) => daemon.request('POST', '/auth/2fa/verify', { body });

  it('enrols: secret, otpauth URI and SVG QR; confirmation answers 10 single-use recovery codes', async () => {
    people += 1;
    const { token } = await daemon.register(`enrol${people}-${kind}@example.com`, 'otp password 1');
    const setup = await daemon.request('POST', '/auth/2fa/setup', { token });
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(setup.body.otpauthUri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(setup.body.secret);
    expect(uri.searchParams.get('issuer')).toBe('svc');
    expect(setup.body.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    // Parsed back by the second implementation, the URI yields the same codes.
    const parsed = OTPAuth.URI.parse(setup.body.otpauthUri) as OTPAuth.TOTP;
    expect(parsed.generate({ timestamp: clock.now().getTime() })).toBe(otpauthCode(setup.body.secret, clock.now()));
    expect((await daemon.request('GET', '/auth/me', { token })).body.twoFactorEnabled).toBe(false);

    const wrong = await daemon.request('POST', '/auth/2fa/confirm', {
      token,
      body: { code: '000000' === otpauthCode(setup.body.secret, clock.now()) ? '111111' : '000000' },
    });
    expect(wrong.status).toBe(401);
    const confirm = await daemon.request('POST', '/auth/2fa/confirm', { token, body: { code: oathtoolCode(setup.body.secret, clock.now()) } });
    expect(confirm.status).toBe(200);
    expect(confirm.body.recoveryCodes).toHaveLength(10);
    expect(new Set(confirm.body.recoveryCodes).size).toBe(10);
    for (const code of confirm.body.recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await daemon.request('GET', '/auth/me', { token })).body.twoFactorEnabled).toBe(true);
    const stored = await daemon.deps.db.kysely.selectFrom('recovery_codes').select('code_hash').execute();
    expect(JSON.stringify(stored)).not.toContain(confirm.body.recoveryCodes[0].replace('-', ''));
    const again = await daemon.request('POST', '/auth/2fa/setup', { token });
    expect(again.status).toBe(409);
  });

  it('a personal access token cannot enrol or turn 2FA off', async () => {
    const admin = await daemon.adminToken();
    const pat = await daemon.request('POST', '/auth/tokens', { token: admin, body: { name: 'ci', org: 'default' } });
    expect(pat.status).toBe(201);
    for (const [method, path, body] of [
      ['POST', '/auth/2fa/setup', undefined],
      ['POST', '/auth/2fa/confirm', { code: '123456' }],
      ['DELETE', '/auth/2fa', { code: '123456' }],
    ] as const) {
      const res = await daemon.request(method, path, { token: pat.body.token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
  });

  it('login asks for the second factor; a code from oathtool completes it', async () => {
    const account = await enrolled();
    const mfaToken = await challenge(account.email, account.password);
    const res = await verify({ mfaToken, code: oathtoolCode(account.secret, clock.now()) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tokenType: 'Bearer', user: { email: account.email, twoFactorEnabled: true } });
    expect((await daemon.request('GET', '/auth/me', { token: res.body.accessToken })).status).toBe(200);
  });

  it('the mfaToken is 401 as a bearer token anywhere else', async () => {
    const account = await enrolled();
    const mfaToken = await challenge(account.email, account.password);
    for (const [method, path] of [
      ['GET', '/auth/me'],
      ['POST', '/auth/2fa/setup'],
      ['DELETE', '/auth/2fa'],
      ['GET', '/auth/tokens'],
      ['POST', '/auth/logout'],
    ] as const) {
      const res = await daemon.request(method, path, { token: mfaToken, body: method === 'DELETE' ? { code: '123456' } : undefined });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
  });

  it('accepts one time step either side, not two', async () => {
    const account = await enrolled();
    const past = new Date(clock.now().getTime() - 30_000);
    expect((await verify({ mfaToken: await challenge(account.email, account.password), code: oathtoolCode(account.secret, past) })).status).toBe(200);
    clock.advance(60_000);
    const future = new Date(clock.now().getTime() + 30_000);
    expect((await verify({ mfaToken: await challenge(account.email, account.password), code: otpauthCode(account.secret, future) })).status).toBe(200);
    clock.advance(120_000);
    const tooOld = new Date(clock.now().getTime() - 60_000);
    const tooNew = new Date(clock.now().getTime() + 60_000);
    const mfaToken = await challenge(account.email, account.password);
    expect((await verify({ mfaToken, code: otpauthCode(account.secret, tooOld) })).status).toBe(401);
    expect((await verify({ mfaToken, code: otpauthCode(account.secret, tooNew) })).status).toBe(401);
  });

  it('a code is accepted once: no replay within its window, nor an older step after a newer one', async () => {
    const account = await enrolled();
    const code = oathtoolCode(account.secret, clock.now());
    expect((await verify({ mfaToken: await challenge(account.email, account.password), code })).status).toBe(200);
    const replay = await verify({ mfaToken: await challenge(account.email, account.password), code });
    expect(replay.status).toBe(401);
    const previous = otpauthCode(account.secret, new Date(clock.now().getTime() - 30_000));
    expect((await verify({ mfaToken: await challenge(account.email, account.password), code: previous })).status).toBe(401);
    // Concurrent use of one fresh code: exactly one wins.
    clock.advance(30_000);
    const fresh = otpauthCode(account.secret, clock.now());
    const tokens = await Promise.all(Array.from({ length: 4 }, () => challenge(account.email, account.password)));
    const answers = await Promise.all(tokens.map((mfaToken) => verify({ mfaToken, code: fresh })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
  });

  it('a recovery code works once, typed in any case and without the dash', async () => {
    const account = await enrolled();
    const [first] = account.recoveryCodes;
    const res = await verify({ mfaToken: await challenge(account.email, account.password), recoveryCode: first.toUpperCase().replace('-', ' ') });
    expect(res.status).toBe(200);
    expect((await verify({ mfaToken: await challenge(account.email, account.password), recoveryCode: first })).status).toBe(401);
    expect((await verify({ mfaToken: await challenge(account.email, account.password), recoveryCode: account.recoveryCodes[1] })).status).toBe(200);
  });

  it('the mfaToken lasts 5 minutes', async () => {
    const account = await enrolled();
    const mfaToken = await challenge(account.email, account.password);
    clock.advance(301_000);
    const res = await verify({ mfaToken, code: otpauthCode(account.secret, clock.now()) });
    expect(res.status).toBe(401);
  });

  it('wrong codes are rate-limited per account with Retry-After', async () => {
    const account = await enrolled();
    const mfaToken = await challenge(account.email, account.password);
    const good = otpauthCode(account.secret, clock.now());
    const bad = good === '999999' ? '999998' : '999999';
    for (let i = 0; i < 5; i++) expect((await verify({ mfaToken, code: bad })).status).toBe(401);
    const limited = await verify({ mfaToken, code: good });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('asks for exactly one of code and recoveryCode', async () => {
    const account = await enrolled();
    const mfaToken = await challenge(account.email, account.password);
    expect((await verify({ mfaToken })).status).toBe(400);
    expect((await verify({ mfaToken, code: '123456', recoveryCode: 'abcde-fghij' })).status).toBe(400);
  });

  it('DELETE /auth/2fa: with a current code or the password; afterwards login answers a session', async () => {
    const byCode = await enrolled();
    const wrongPassword = await daemon.request('DELETE', '/auth/2fa', { token: byCode.token, body: { currentPassword: 'not it at all' } });
    expect(wrongPassword.status).toBe(401);
    const off = await daemon.request('DELETE', '/auth/2fa', { token: byCode.token, body: { code: oathtoolCode(byCode.secret, clock.now()) } });
    expect(off.status).toBe(204);
    const login = await daemon.request('POST', '/auth/login', { body: { email: byCode.email, password: byCode.password } });
    expect(login.body.accessToken).toBeTruthy();
    expect((await daemon.request('DELETE', '/auth/2fa', { token: byCode.token, body: { code: '123456' } })).status).toBe(409);

    const byPassword = await enrolled();
    expect((await daemon.request('DELETE', '/auth/2fa', { token: byPassword.token, body: { currentPassword: byPassword.password } })).status).toBe(204);
    expect((await daemon.request('GET', '/auth/me', { token: byPassword.token })).body.twoFactorEnabled).toBe(false);
    const codes = await daemon.deps.db.kysely
      .selectFrom('recovery_codes')
      .innerJoin('users', 'users.uid', 'recovery_codes.user_uid')
      .select('code_hash')
      .where('users.email', '=', byPassword.email)
      .execute();
    expect(codes).toEqual([]);
  });
});
