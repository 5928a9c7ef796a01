import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../daemon/clock.js';
import { sha256 } from '../../daemon/crypto/tokens.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { freePort, TestBrowser } from '../support/oauth/browser.js';
import { startFakeProvider, type FakeProvider } from '../support/oauth/fake-providers.js';
import { browserSignIn } from '../support/oauth/sign-in.js';

describe.each(DATABASE_KINDS)('sign-in hand-off [%s]', (kind) => {
  let daemon: TestDaemon;
  let provider: FakeProvider;
  let base: string;
  const clock = manualClock(new Date());
  let people = 0;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    provider = await startFakeProvider('code_host_a', { clientId: 'gh-client', clientSecret: 'gh-client-secret-value' });
    daemon = await startTestDaemon(kind, { clock, env: { SVC_LISTEN: `127.0.0.1:${port}`, SVC_BASE_URL: base, ...provider.env() } });
  });
  afterAll(async () => {
    await daemon?.stop();
    await provider?.close();
  });

  /** The next person the provider signs in. */
  function nextPerson(): string {
    people += 1;
    const email = `hand${people}-${kind}@example.com`;
    provider.next.user = { profile: { id: 9000 + people, login: `hand${people}` }, emails: [{ email, primary: true, verified: true }] };
    return email;
  }

  const exchange = (code: string) => daemon.request('POST', '/auth/handoff/exchange', { body: { code } });

  it('exchanges once; the session is never in a URL and only the SHA-256 of the code is stored', async () => {
    nextPerson();
    const browser = new TestBrowser();
    const landing = await browserSignIn(daemon, 'code_host_a', { browser, returnTo: '/status-pages' });
    expect(landing.code).toMatch(/^[\w-]{43}$/);
    const first = await exchange(landing.code!);
    expect(first.status).toBe(200);
    expect(first.body.returnTo).toBe('/status-pages');
    expect(browser.visited.some((url) => url.includes(first.body.accessToken))).toBe(false);
    const rows = await daemon.deps.db.kysely.selectFrom('handoff_codes').select('code_hash').execute();
    expect(rows.map((r) => r.code_hash)).toContain(sha256(landing.code!));
    expect(JSON.stringify(rows)).not.toContain(landing.code);

    const again = await exchange(landing.code!);
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe('UNAUTHORIZED');
    expect(JSON.stringify(again.body)).not.toContain('accessToken');
  });

  it('works at 59 seconds and not at 61 (injected clock)', async () => {
    nextPerson();
    const young = await browserSignIn(daemon, 'code_host_a');
    clock.advance(59_000);
    expect((await exchange(young.code!)).status).toBe(200);

    nextPerson();
    const old = await browserSignIn(daemon, 'code_host_a');
    clock.advance(61_000);
    const late = await exchange(old.code!);
    expect(late.status).toBe(401);
    expect(late.body.error.code).toBe('UNAUTHORIZED');
  });

  it('20 concurrent exchanges of one code yield exactly one session', async () => {
    nextPerson();
    const landing = await browserSignIn(daemon, 'code_host_a');
    const before = await daemon.deps.db.kysely.selectFrom('sessions').select('id_hash').execute();
    const answers = await Promise.all(Array.from({ length: 20 }, () => exchange(landing.code!)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(19);
    const after = await daemon.deps.db.kysely.selectFrom('sessions').select('id_hash').execute();
    expect(after.length - before.length).toBe(1);
  });

  it('exchanges racing on two replicas of one database yield exactly one session', async () => {
    const replica = await startTestDaemon(kind, { clock, database: daemon.database, env: { SVC_BASE_URL: base, ...provider.env() } });
    try {
      nextPerson();
      const landing = await browserSignIn(daemon, 'code_host_a');
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? replica : daemon).request('POST', '/auth/handoff/exchange', { body: { code: landing.code } })),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    } finally {
      await replica.close();
    }
  });

  it('an unknown code is refused like a used one', async () => {
    const res = await exchange('A'.repeat(43));
    expect(res.status).toBe(401);
    expect((await daemon.request('POST', '/auth/handoff/exchange', { body: {} })).status).toBe(400);
  });

  it.each([
    ['//evil.example/x', '/'],
    ['https://evil.example/', '/'],
    ['/\\evil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['/orgs/acme/checks?label=a%3Db#top', '/orgs/acme/checks?label=a%3Db#top'],
  ])('returnTo %s becomes %s', async (returnTo, expected) => {
    nextPerson();
    const landing = await browserSignIn(daemon, 'code_host_a', { returnTo });
    expect((await exchange(landing.code!)).body.returnTo).toBe(expected);
  });

  it('a callback replayed, from another browser, or after 10 minutes is refused', async () => {
    nextPerson();
    const browser = new TestBrowser();
    const toProvider = (await browser.get(`${daemon.url}/api/v1/auth/code_host_a/login`)).headers.get('location')!;
    expect(browser.hasCookie(daemon.url, 'svc_oauth_state')).toBe(true);
    const callback = (await browser.get(toProvider)).headers.get('location')!;
    // Another browser (no state cookie) is refused, and the state is spent.
    const stranger = new TestBrowser();
    expect(new URL((await stranger.get(callback)).headers.get('location')!).searchParams.get('error')).toBe('invalid_state');
    expect(new URL((await browser.get(callback)).headers.get('location')!).searchParams.get('error')).toBe('invalid_state');

    nextPerson();
    const fresh = new TestBrowser();
    const again = (await fresh.get(`${daemon.url}/api/v1/auth/code_host_a/login`)).headers.get('location')!;
    const back = (await fresh.get(again)).headers.get('location')!;
    expect(new URL((await fresh.get(back)).headers.get('location')!).searchParams.get('code')).toBeTruthy();
    expect(new URL((await fresh.get(back)).headers.get('location')!).searchParams.get('error')).toBe('invalid_state');

    nextPerson();
    const slow = new TestBrowser();
    const slowStart = (await slow.get(`${daemon.url}/api/v1/auth/code_host_a/login`)).headers.get('location')!;
    const slowBack = (await slow.get(slowStart)).headers.get('location')!;
    clock.advance(601_000);
    expect(new URL((await slow.get(slowBack)).headers.get('location')!).searchParams.get('error')).toBe('invalid_state');
  });

  it('a refusal at the provider lands on the page with access_denied', async () => {
    provider.next.deny = true;
    try {
      expect((await browserSignIn(daemon, 'code_host_a')).error).toBe('access_denied');
    } finally {
      provider.next.deny = false;
    }
  });

  it('an unknown or disabled provider is 404; platform names reach the same provider', async () => {
    expect((await daemon.request('GET', '/auth/nope/login')).status).toBe(404);
    expect((await daemon.request('GET', '/auth/search_portal/login')).status).toBe(404);
    const email = nextPerson();
    const landing = await browserSignIn(daemon, 'github');
    expect((await exchange(landing.code!)).body.user.email).toBe(email);
  });

  it('an account with 2FA gets mfaRequired from the exchange instead of a session', async () => {
    const email = nextPerson();
    const first = await exchange((await browserSignIn(daemon, 'code_host_a')).code!);
    await daemon.deps.db.kysely.updateTable('users').set({ totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' }).where('email', '=', email).execute();
    provider.next.user = { profile: { id: 9000 + people, login: 'again' }, emails: [{ email, primary: true, verified: true }] };
    const second = await exchange((await browserSignIn(daemon, 'code_host_a', { returnTo: '/x' })).code!);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ mfaRequired: true, mfaToken: expect.any(String), returnTo: '/x' });
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP') }).generate({ timestamp: clock.now().getTime() });
    const verified = await daemon.request('POST', '/auth/2fa/verify', { body: { mfaToken: second.body.mfaToken, code } });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ uid: first.body.user.uid, twoFactorEnabled: true });
    const session = await daemon.deps.db.kysely
      .selectFrom('sessions')
      .select('method')
      .where('user_uid', '=', first.body.user.uid)
      .orderBy('created_at', 'desc')
      .execute();
    expect(session.map((s) => s.method)).toContain('oauth:code_host_a+totp');
  });

  it('links by verified e-mail to an existing password account, and keeps the link by subject', async () => {
    people += 1;
    const email = `linked${people}-${kind}@example.com`;
    const registered = await daemon.register(email, 'linked password 1');
    // A verified address: an unverified one is taken over instead (security/account-takeover.test.ts).
    await daemon.deps.db.kysely.updateTable('users').set({ email_verified: 1 }).where('uid', '=', registered.uid).execute();
    provider.next.user = { profile: { id: 7000 + people, login: 'lnk' }, emails: [{ email, primary: true, verified: true }] };
    const viaProvider = await exchange((await browserSignIn(daemon, 'code_host_a')).code!);
    expect(viaProvider.body.user).toMatchObject({ uid: registered.uid, hasPassword: true, emailVerified: true });
    // The provider address changes; the subject still finds the account.
    provider.next.user = { profile: { id: 7000 + people, login: 'lnk' }, emails: [{ email: `moved${people}@example.com`, primary: true, verified: true }] };
    expect((await exchange((await browserSignIn(daemon, 'code_host_a')).code!)).body.user.uid).toBe(registered.uid);
  });

  it('an unverified address neither links nor creates an account', async () => {
    people += 1;
    const email = `victim${people}-${kind}@example.com`;
    await daemon.register(email, 'victim password 1');
    provider.next.user = { profile: { id: 6000 + people, login: 'mallory', email }, emails: [{ email, primary: true, verified: false }] };
    expect((await browserSignIn(daemon, 'code_host_a')).error).toBe('email_not_verified');
    const linked = await daemon.deps.db.kysely
      .selectFrom('linked_identities')
      .select('user_uid')
      .where('subject', '=', String(6000 + people))
      .execute();
    expect(linked).toEqual([]);
  });

  it('never logs a code, a token or the client secret', async () => {
    nextPerson();
    const landing = await browserSignIn(daemon, 'code_host_a');
    const session = await exchange(landing.code!);
    const logs = daemon.logs.join('\n');
    expect(logs).not.toContain(landing.code!);
    expect(logs).not.toContain(session.body.accessToken);
    expect(logs).not.toContain('gh-client-secret-value');
    expect(logs).not.toContain(provider.lastTokenForm!.get('code')!);
  });
});

describe.each(DATABASE_KINDS)('registration pattern on external sign-in [%s]', (kind) => {
  it('refuses a new account outside SVC_AUTH_REGISTRATION_EMAIL_PATTERN', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const provider = await startFakeProvider('game_chat', { clientId: 'dc', clientSecret: 'dc-secret' });
    const daemon = await startTestDaemon(kind, {
      env: { SVC_LISTEN: `127.0.0.1:${port}`, SVC_BASE_URL: base, SVC_AUTH_REGISTRATION_EMAIL_PATTERN: '@corp\\.example$', ...provider.env() },
    });
    try {
      provider.next.user = { profile: { id: '1', username: 'out', email: 'out@other.example', verified: true } };
      expect((await browserSignIn(daemon, 'discord')).error).toBe('registration_closed');
      provider.next.user = { profile: { id: '2', username: 'in', email: 'in@corp.example', verified: true } };
      expect((await browserSignIn(daemon, 'discord')).code).toBeTruthy();
    } finally {
      await daemon.stop();
      await provider.close();
    }
  });
});
