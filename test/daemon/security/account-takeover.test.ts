import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { freePort } from '../../support/oauth/browser.js';
import { startTestProviders, type TestProviders } from '../../support/oauth/providers.js';
import { signInAndExchange } from '../../support/oauth/sign-in.js';
import { startTestSmtp, type TestSmtp } from '../../support/smtp.js';

/**
 * Someone holds an account under another person's address without ever proving it. When the
 * owner of the address signs in through a provider that vouches for it, the account becomes
 * theirs and nothing of the previous holder keeps working.
 */
describe.each(DATABASE_KINDS)('an unverified account is taken over by the verified owner of its address [%s]', (kind) => {
  let daemon: TestDaemon;
  let providers: TestProviders;
  let smtp: TestSmtp;

  beforeAll(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    providers = await startTestProviders(base);
    smtp = await startTestSmtp();
    daemon = await startTestDaemon(kind, { env: { SVC_LISTEN: `127.0.0.1:${port}`, SVC_BASE_URL: base, SVC_SMTP_URL: smtp.url, ...providers.env } });
  });
  afterAll(async () => {
    await daemon?.stop();
    await providers?.close();
    await smtp?.close();
  });

  /** The squatter's foothold: a session, an organization of their own and a token in it. */
  async function foothold(session: string, slug: string) {
    expect((await daemon.request('POST', '/orgs', { token: session, body: { slug, name: slug } })).status).toBe(201);
    const minted = await daemon.request('POST', '/auth/tokens', { token: session, body: { name: 'keep', org: slug } });
    expect(minted.status).toBe(201);
    expect((await daemon.request('GET', '/auth/me', { token: minted.body.token })).status).toBe(200);
    return minted.body.token as string;
  }

  /** The owner signs in through the provider; afterwards the squatter's credentials are all refused. */
  async function ownerClaims(input: { sub: string; email: string; squatterPassword: string; session: string; token: string; slug: string }) {
    providers.searchPortal.next.account = { sub: input.sub, email: input.email, email_verified: true, name: 'Owner' };
    const { exchange } = await signInAndExchange(daemon, 'search_portal');
    expect(exchange.status).toBe(200);
    const owner = exchange.body.accessToken as string;
    const me = await daemon.request('GET', '/auth/me', { token: owner });
    expect(me.body).toMatchObject({ email: input.email, emailVerified: true, hasPassword: false, twoFactorEnabled: false });

    // The squatter's password, session and token: all refused.
    expect((await daemon.request('POST', '/auth/login', { body: { email: input.email, password: input.squatterPassword } })).status).toBe(401);
    expect((await daemon.request('GET', '/auth/me', { token: input.session })).status).toBe(401);
    expect((await daemon.request('GET', '/auth/me', { token: input.token })).status).toBe(401);
    expect((await daemon.request('GET', `/orgs/${input.slug}`, { token: input.token })).status).toBe(401);
    // The owner's own session stays, and no token of the previous holder is listed.
    expect((await daemon.request('GET', '/auth/tokens', { token: owner })).body.items).toEqual([]);

    // It is in the audit log, and the owner is told by mail.
    const audit = await daemon.request('GET', `/orgs/${input.slug}/audit-log?kind=auth.account_claimed`, { token: owner });
    expect(audit.status).toBe(200);
    expect(audit.body.items[0]).toMatchObject({ kind: 'auth.account_claimed', data: { via: 'search_portal', password: true, tokens: 1 } });
    expect(audit.body.items[0].data.sessions).toBeGreaterThanOrEqual(1);
    const notice = await waitForMail(input.email, 'You now hold the account of your e-mail address');
    expect(notice.text).toContain('1 personal access token(s)');
    expect(daemon.logs.some((line) => line.includes('taken over by the verified owner'))).toBe(true);
    expect(daemon.logs.join('\n')).not.toContain(input.squatterPassword);
    return owner;
  }

  /** Turns two-factor sign-in on for the session's account. */
  async function enrolTotp(session: string) {
    const secret = (await daemon.request('POST', '/auth/2fa/setup', { token: session })).body.secret as string;
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();
    expect((await daemon.request('POST', '/auth/2fa/confirm', { token: session, body: { code } })).status).toBe(200);
  }

  async function waitForMail(to: string, subject: string) {
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = smtp.mails.find((m) => m.to.includes(to) && m.subject === subject);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail "${subject}" to ${to}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('a squatter who registered the address first keeps no password, session, token or second factor', async () => {
    const email = 'victim-one@example.com';
    const squatterPassword = 'squatter-pass-1';
    const { token: session } = await daemon.register(email, squatterPassword);
    const token = await foothold(session, 'squat-one');
    // A second factor of the squatter's own: it must not survive either.
    await enrolTotp(session);
    await ownerClaims({ sub: 'owner-1', email, squatterPassword, session, token, slug: 'squat-one' });
  });

  it('a user who changed their address to the victim’s keeps no access', async () => {
    const squatterPassword = 'changer-pass-1';
    const { token: first } = await daemon.register('changer@example.com', squatterPassword);
    const token = await foothold(first, 'squat-two');
    const email = 'victim-two@example.com';
    const changed = await daemon.request('PATCH', '/auth/me', { token: first, body: { email, currentPassword: squatterPassword } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ email, emailVerified: false });
    const session = await daemon.login(email, squatterPassword);
    await ownerClaims({ sub: 'owner-2', email, squatterPassword, session, token, slug: 'squat-two' });
    expect((await daemon.request('GET', '/auth/me', { token: first })).status).toBe(401);
  });

  it('an account whose address was verified is linked, and keeps its credentials', async () => {
    const { token: session, uid } = await daemon.register('verified-holder@example.com', 'holder-pass-1');
    await daemon.deps.db.kysely.updateTable('users').set({ email_verified: 1 }).where('uid', '=', uid).execute();
    providers.searchPortal.next.account = { sub: 'owner-3', email: 'verified-holder@example.com', email_verified: true, name: 'Holder' };
    const { exchange } = await signInAndExchange(daemon, 'search_portal');
    expect(exchange.status).toBe(200);
    expect((await daemon.request('GET', '/auth/me', { token: session })).status).toBe(200);
    expect((await daemon.request('POST', '/auth/login', { body: { email: 'verified-holder@example.com', password: 'holder-pass-1' } })).status).toBe(200);
  });

  it('the owner who resets the password through the mailed link takes the account the same way', async () => {
    const email = 'victim-three@example.com';
    const { token: session } = await daemon.register(email, 'squatter-pass-3');
    const token = await foothold(session, 'squat-three');
    await enrolTotp(session);
    const before = smtp.mails.length;
    expect((await daemon.request('POST', '/auth/password-reset', { body: { email } })).status).toBe(202);
    let mail;
    while (!(mail = smtp.mails.slice(before).find((m) => m.to.includes(email) && m.subject === 'Reset your password')))
      await new Promise((r) => setTimeout(r, 50));
    const resetToken = decodeURIComponent(/#token=([A-Za-z0-9_%-]+)/.exec(mail.text)![1]);
    expect((await daemon.request('POST', '/auth/password-reset/confirm', { body: { token: resetToken, newPassword: 'owner-pass-3' } })).status).toBe(204);
    expect((await daemon.request('GET', '/auth/me', { token: session })).status).toBe(401);
    expect((await daemon.request('GET', '/auth/me', { token })).status).toBe(401);
    expect((await daemon.request('POST', '/auth/login', { body: { email, password: 'squatter-pass-3' } })).status).toBe(401);
    // The squatter's authenticator is gone: the owner's password alone gives a session.
    const owner = await daemon.request('POST', '/auth/login', { body: { email, password: 'owner-pass-3' } });
    expect(owner.status).toBe(200);
    expect(owner.body.accessToken).toBeDefined();
    expect(owner.body.user).toMatchObject({ emailVerified: true, twoFactorEnabled: false });
    const audit = await daemon.request('GET', '/orgs/squat-three/audit-log?kind=auth.account_claimed', { token: owner.body.accessToken });
    expect(audit.body.items[0].data).toMatchObject({ via: 'password_reset', twoFactor: true, tokens: 1 });
  });
});
