import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPasswordHasher } from '../../daemon/auth/password/index.js';
import { sha256 } from '../../daemon/crypto/tokens.js';
import { manualClock } from '../../daemon/clock.js';
import { writeParameter } from '../../daemon/parameters.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_PASSWORD, startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { startTestSmtp, type ReceivedMail, type TestSmtp } from '../support/smtp.js';

const BASE_URL = 'https://svc.example.test';

/** The first mail to `to` whose subject contains `subject`, waiting for it to arrive. */
async function mailTo(smtp: TestSmtp, to: string, subject: string, timeoutMs = 5000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = smtp.mails.find((m) => m.to.includes(to) && m.subject.includes(subject));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail "${subject}" to ${to}; got: ${smtp.mails.map((m) => `${m.to} ${m.subject}`).join(' | ')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The token of the `{base_url}/d/reset#token=...` link in a mail. */
function resetToken(mail: ReceivedMail): string {
  const match = new RegExp(`${BASE_URL.replace(/\./g, '\\.')}/d/reset#token=([A-Za-z0-9_%-]+)`).exec(mail.text);
  if (!match) throw new Error(`no reset link in: ${mail.text}`);
  return decodeURIComponent(match[1]);
}

describe.each(DATABASE_KINDS)('password reset [%s]', (kind) => {
  let daemon: TestDaemon;
  let smtp: TestSmtp;
  const clock = manualClock(new Date());
  const secrets: string[] = [];

  /** Asks for a reset of `email` and returns the token of the link that arrives. */
  async function requestLink(email: string): Promise<string> {
    const before = smtp.mails.length;
    const res = await daemon.request('POST', '/auth/password-reset', { body: { email } });
    expect(res.status).toBe(202);
    const deadline = Date.now() + 5000;
    while (!smtp.mails.slice(before).some((m) => m.to.includes(email) && m.subject === 'Reset your password')) {
      if (Date.now() > deadline) throw new Error(`no reset mail to ${email}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const token = resetToken(smtp.mails.slice(before).find((m) => m.to.includes(email) && m.subject === 'Reset your password')!);
    secrets.push(token);
    return token;
  }

  const confirm = (token: string, newPassword: string) => {
    secrets.push(newPassword);
    return daemon.request('POST', '/auth/password-reset/confirm', { body: { token, newPassword } });
  };

  beforeAll(async () => {
    smtp = await startTestSmtp();
    daemon = await startTestDaemon(kind, { clock, env: { SVC_SMTP_URL: smtp.url, SVC_BASE_URL: BASE_URL } });
  });
  afterAll(async () => {
    await daemon.stop();
    await smtp.close();
  });
  // Each test starts below the request limits; the limits have a test of their own.
  beforeEach(async () => {
    await daemon.deps.db.kysely.deleteFrom('rate_limits').execute();
  });

  it('answers a known and an unknown address identically, and mails only the known one', async () => {
    await daemon.register('ann@example.com', 'anns first password');
    const known = await daemon.request('POST', '/auth/password-reset', { body: { email: 'Ann@Example.com' } });
    const unknown = await daemon.request('POST', '/auth/password-reset', { body: { email: 'nobody@example.com' } });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    expect(unknown.headers.get('content-type')).toBe(known.headers.get('content-type'));
    expect(unknown.headers.get('content-length')).toBe(known.headers.get('content-length'));

    const mail = await mailTo(smtp, 'ann@example.com', 'Reset your password');
    expect(mail.text).toContain('expires on');
    const token = resetToken(mail);
    secrets.push(token);
    // 32 random bytes, and only their SHA-256 is stored.
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const rows = await daemon.deps.db.kysely.selectFrom('password_resets').selectAll().execute();
    expect(rows.map((r) => r.token_hash)).toContain(sha256(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    // The unknown address got nothing, and no link exists for it: a reset asked after it, for a
    // known address, has arrived, so a mail to the unknown one would have been sent by now.
    await daemon.register('sentinel@example.com', 'sentinels password');
    expect((await daemon.request('POST', '/auth/password-reset', { body: { email: 'sentinel@example.com' } })).status).toBe(202);
    await mailTo(smtp, 'sentinel@example.com', 'Reset your password');
    expect(smtp.mails.some((m) => m.to.includes('nobody@example.com'))).toBe(false);
    expect(rows.every((r) => r.email === 'ann@example.com')).toBe(true);
  });

  it('sets the password under the current policy, ends every session, records the audit event and mails a notice', async () => {
    const { token: first, uid } = await daemon.register('bob@example.com', 'bobs old password');
    expect((await daemon.request('POST', '/orgs', { token: first, body: { slug: 'bobs-org', name: 'Bob' } })).status).toBe(201);
    const second = await daemon.login('bob@example.com', 'bobs old password');
    // A hash left by an older policy (bcrypt): the reset must replace it with one under the current one.
    const oldPolicy = createPasswordHasher({ ...daemon.deps.hasher.policy, algorithm: 'bcrypt', bcrypt: { cost: 10 } }, { concurrency: 1 });
    try {
      await daemon.deps.db.kysely
        .updateTable('users')
        .set({ password_hash: await oldPolicy.hash('bobs old password') })
        .where('uid', '=', uid)
        .execute();
    } finally {
      await oldPolicy.close();
    }

    const token = await requestLink('bob@example.com');
    const res = await confirm(token, 'bobs new password');
    expect(res.status).toBe(204);

    for (const session of [first, second]) {
      const me = await daemon.request('GET', '/auth/me', { token: session });
      expect(me.status).toBe(401);
      expect(me.body.error.code).toBe('UNAUTHORIZED');
    }
    const user = await daemon.deps.db.kysely.selectFrom('users').selectAll().where('uid', '=', uid).executeTakeFirstOrThrow();
    const { memory, time, threads } = daemon.deps.hasher.policy.argon2;
    expect(user.password_hash).toMatch(new RegExp(`^\\$argon2id\\$v=19\\$m=${memory},t=${time},p=${threads}\\$`));
    expect(daemon.deps.hasher.needsRehash(user.password_hash!)).toBe(false);

    expect((await daemon.request('POST', '/auth/login', { body: { email: 'bob@example.com', password: 'bobs old password' } })).status).toBe(401);
    const fresh = await daemon.login('bob@example.com', 'bobs new password');
    const audit = await daemon.request('GET', '/orgs/bobs-org/audit-log?kind=auth.password_reset', { token: fresh });
    expect(audit.status).toBe(200);
    expect(audit.body.items).toHaveLength(1);
    expect(audit.body.items[0]).toMatchObject({ kind: 'auth.password_reset', actor: { uid }, target: { uid }, data: { requestedBy: 'self' } });

    const notice = await mailTo(smtp, 'bob@example.com', 'Your password was reset');
    expect(notice.text).toContain('signed out');
    expect(notice.text).not.toContain('token=');
  });

  it('a link works once, and a newer request voids the older link', async () => {
    await daemon.register('carol@example.com', 'carols password');
    const older = await requestLink('carol@example.com');
    const newer = await requestLink('carol@example.com');
    const voided = await confirm(older, 'carols second password');
    expect(voided.status).toBe(400);
    expect(voided.body.error.code).toBe('VALIDATION_FAILED');
    expect((await confirm(newer, 'carols second password')).status).toBe(204);
    const again = await confirm(newer, 'carols third password');
    expect(again.status).toBe(400);
    expect(again.body.error.details.issues).toEqual([{ path: 'token', message: 'is invalid, used or expired' }]);
    await daemon.login('carol@example.com', 'carols second password');
    expect((await confirm('not-a-token-at-all', 'whatever password')).status).toBe(400);
  });

  it('refuses a link older than one hour (injected clock), and accepts one just under', async () => {
    await daemon.register('dan@example.com', 'dans password');
    const expiring = await requestLink('dan@example.com');
    clock.advance(3600_000);
    const late = await confirm(expiring, 'dans new password');
    expect(late.status).toBe(400);
    expect(late.body.error.message).toContain('expired');
    await daemon.login('dan@example.com', 'dans password');

    const timely = await requestLink('dan@example.com');
    clock.advance(3599_000);
    expect((await confirm(timely, 'dans new password')).status).toBe(204);
    await daemon.login('dan@example.com', 'dans new password');
  });

  it('a link mailed before an e-mail change no longer works', async () => {
    const { uid } = await daemon.register('erin@example.com', 'erins password');
    const token = await requestLink('erin@example.com');
    await daemon.deps.db.kysely.updateTable('users').set({ email: 'erin.new@example.com' }).where('uid', '=', uid).execute();
    expect((await confirm(token, 'erins new password')).status).toBe(400);
  });

  it('rate-limits requests per address (known or not, answered alike) and per client', async () => {
    await daemon.register('fay@example.com', 'fays password');
    for (let i = 0; i < 5; i++) {
      expect((await daemon.request('POST', '/auth/password-reset', { body: { email: 'fay@example.com' } })).status).toBe(202);
      expect((await daemon.request('POST', '/auth/password-reset', { body: { email: 'ghost@example.com' } })).status).toBe(202);
    }
    const known = await daemon.request('POST', '/auth/password-reset', { body: { email: 'fay@example.com' } });
    const unknown = await daemon.request('POST', '/auth/password-reset', { body: { email: 'ghost@example.com' } });
    expect(known.status).toBe(429);
    expect(known.body.error.code).toBe('RATE_LIMITED');
    expect(Number(known.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(unknown.status).toBe(429);
    expect(unknown.body).toEqual(known.body);

    // Twelve requests so far from this client (the two refused ones count too); the per-client limit is twenty.
    for (let i = 0; i < 8; i++) {
      expect((await daemon.request('POST', '/auth/password-reset', { body: { email: `someone-${i}@example.com` } })).status).toBe(202);
    }
    const client = await daemon.request('POST', '/auth/password-reset', { body: { email: 'someone-else@example.com' } });
    expect(client.status).toBe(429);
    clock.advance(3601_000);
    expect((await daemon.request('POST', '/auth/password-reset', { body: { email: 'someone-else@example.com' } })).status).toBe(202);
  });

  it('an account without a password is told to use its provider, unless a super admin allows setting one', async () => {
    const { uid } = await daemon.register('gus@example.com', 'gus password');
    await daemon.deps.db.kysely.updateTable('users').set({ password_hash: null }).where('uid', '=', uid).execute();
    const res = await daemon.request('POST', '/auth/password-reset', { body: { email: 'gus@example.com' } });
    expect(res.status).toBe(202);
    const explained = await mailTo(smtp, 'gus@example.com', 'About your password reset request');
    expect(explained.text).toContain('identity provider');
    expect(explained.text).not.toContain('/d/reset');
    expect(await daemon.deps.db.kysely.selectFrom('password_resets').select('token_hash').where('user_uid', '=', uid).execute()).toEqual([]);

    await writeParameter(daemon.deps, null, 'auth.allow_password_for_external_accounts', true);
    try {
      const token = await requestLink('gus@example.com');
      expect((await confirm(token, 'gus first password')).status).toBe(204);
      const session = await daemon.login('gus@example.com', 'gus first password');
      expect((await daemon.request('GET', '/auth/me', { token: session })).body.hasPassword).toBe(true);
    } finally {
      await writeParameter(daemon.deps, null, 'auth.allow_password_for_external_accounts', false);
    }
  });

  it('a super admin can have a link mailed to any account', async () => {
    const admin = await daemon.adminToken();
    const { uid, token: hanks } = await daemon.register('hank@example.com', 'hanks password');
    const res = await daemon.request('POST', `/system/users/${uid}/password-reset`, { token: admin });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ userUid: uid, email: 'hank@example.com', mailed: true });
    expect(res.body.url).toBeUndefined();
    const mail = await mailTo(smtp, 'hank@example.com', 'Reset your password');
    expect(mail.text).toContain('An administrator');
    const token = resetToken(mail);
    secrets.push(token);
    expect((await confirm(token, 'hanks new password')).status).toBe(204);
    expect((await daemon.request('GET', '/auth/me', { token: hanks })).status).toBe(401);

    expect((await daemon.request('POST', `/system/users/${uid}/password-reset`, { token: hanks })).status).toBe(401);
    const other = await daemon.register('ivy@example.com', 'ivys password');
    expect((await daemon.request('POST', `/system/users/${uid}/password-reset`, { token: other.token })).status).toBe(403);
    expect((await daemon.request('POST', '/system/users/no-such-user/password-reset', { token: admin })).status).toBe(404);
  });

  it('never writes a reset token or a password to the log', () => {
    expect(secrets.length).toBeGreaterThan(5);
    const text = daemon.logs.join('\n');
    for (const secret of [...secrets, ADMIN_PASSWORD]) expect(text).not.toContain(secret);
  });
});

describe.each(DATABASE_KINDS)('password reset without SMTP [%s]', (kind) => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
  });
  afterAll(() => daemon.stop());

  it('still answers 202 to anyone, and hands the link to a super admin instead of mailing it', async () => {
    const { uid, token: session } = await daemon.register('jo@example.com', 'jos password');
    const asked = await daemon.request('POST', '/auth/password-reset', { body: { email: 'jo@example.com' } });
    expect(asked.status).toBe(202);
    // The answer says that no mail is coming and who can help, the same for any address.
    expect(asked.body).toMatchObject({ mailed: false });
    expect(asked.body.message).toMatch(/does not send mail/);
    expect(asked.body.message).toMatch(/administrator/);
    expect(asked.body.message).not.toMatch(/on its way/);
    const unknown = await daemon.request('POST', '/auth/password-reset', { body: { email: 'nobody@example.com' } });
    expect(unknown.body).toEqual(asked.body);
    expect(await daemon.deps.db.kysely.selectFrom('password_resets').selectAll().execute()).toEqual([]);

    const admin = await daemon.adminToken();
    const res = await daemon.request('POST', `/system/users/${uid}/password-reset`, { token: admin });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ userUid: uid, email: 'jo@example.com', mailed: false });
    const url = new URL(res.body.url);
    expect(url.pathname).toBe('/d/reset');
    // The token rides in the fragment, which never reaches a server or a Referer.
    expect(url.search).toBe('');
    const token = new URLSearchParams(url.hash.slice(1)).get('token')!;
    const done = await daemon.request('POST', '/auth/password-reset/confirm', { body: { token, newPassword: 'jos new password' } });
    expect(done.status).toBe(204);
    expect((await daemon.request('GET', '/auth/me', { token: session })).status).toBe(401);
    await daemon.login('jo@example.com', 'jos new password');
    expect(daemon.logs.join('\n')).not.toContain(token);
  });

  it('refuses a super-admin reset of an account without a password unless allowed', async () => {
    const { uid } = await daemon.register('kim@example.com', 'kims password');
    await daemon.deps.db.kysely.updateTable('users').set({ password_hash: null }).where('uid', '=', uid).execute();
    const admin = await daemon.adminToken();
    const res = await daemon.request('POST', `/system/users/${uid}/password-reset`, { token: admin });
    expect(res.status).toBe(409);
    expect(res.body.error.details.reason).toBe('EXTERNAL_ACCOUNT');
  });
});
