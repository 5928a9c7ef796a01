import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { startTestSmtp, type TestSmtp } from '../../support/smtp.js';
import { addMember, createOrg } from './helpers.js';
import { linkToken, waitForMail } from './mail.js';

const PASSWORD = 'password-123';

describe.each(DATABASE_KINDS)('e-mail change [%s]', (kind) => {
  let daemon: TestDaemon;
  let smtp: TestSmtp;
  let admin: string;
  let n = 0;
  /** A fresh account (member of `acme`) for each test, so the tests stay independent. */
  const account = async (role = 'user') => {
    n += 1;
    const email = `person${n}@example.com`;
    const { token, uid } = await addMember(daemon, 'acme', admin, email, role);
    return { email, token, uid, newEmail: `renamed${n}@example.org` };
  };
  const changeOwn = (token: string, email: string, currentPassword = PASSWORD) =>
    daemon.request('PATCH', '/auth/me', { token, body: { email, currentPassword } });

  beforeAll(async () => {
    smtp = await startTestSmtp();
    daemon = await startTestDaemon(kind, { env: { SVC_SMTP_URL: smtp.url, SVC_BASE_URL: 'https://svc.example.com' } });
    admin = await daemon.adminToken();
    await createOrg(daemon, admin, 'acme');
    await createOrg(daemon, admin, 'beta');
  });
  afterAll(async () => {
    await daemon.stop();
    await smtp.close();
  });

  it('changes the address and marks it unverified; the new address signs in, the old one does not', async () => {
    const a = await account();
    await daemon.deps.db.kysely.updateTable('users').set({ email_verified: 1 }).where('uid', '=', a.uid).execute();
    expect((await daemon.request('GET', '/auth/me', { token: a.token })).body.emailVerified).toBe(true);
    const res = await changeOwn(a.token, a.newEmail.toUpperCase());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ uid: a.uid, email: a.newEmail, emailVerified: false });
    await daemon.login(a.newEmail, PASSWORD);
    expect((await daemon.request('POST', '/auth/login', { body: { email: a.email, password: PASSWORD } })).status).toBe(401);
  });

  it('signs out every other session of the user; the one that made the change stays', async () => {
    const a = await account();
    const other1 = await daemon.login(a.email, PASSWORD);
    const other2 = await daemon.login(a.email, PASSWORD);
    expect((await changeOwn(a.token, a.newEmail)).status).toBe(200);
    expect((await daemon.request('GET', '/auth/me', { token: a.token })).status).toBe(200);
    for (const token of [other1, other2]) {
      const res = await daemon.request('GET', '/auth/me', { token });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
  });

  it('by a super admin: needs no password and signs out all of the target’s sessions', async () => {
    const a = await account();
    const second = await daemon.login(a.email, PASSWORD);
    const res = await daemon.request('PATCH', `/system/users/${a.uid}`, { token: admin, body: { email: a.newEmail } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ uid: a.uid, email: a.newEmail, emailVerified: false });
    for (const token of [a.token, second]) expect((await daemon.request('GET', '/auth/me', { token })).status).toBe(401);
    // The super admin's own session is untouched.
    expect((await daemon.request('GET', '/auth/me', { token: admin })).status).toBe(200);
  });

  it('sends a notice to the previous address', async () => {
    const a = await account();
    expect((await changeOwn(a.token, a.newEmail)).status).toBe(200);
    const notice = await waitForMail(smtp, a.email, 'e-mail address of your account was changed');
    expect(notice.to).toEqual([a.email]);
    expect(notice.text).toContain('was changed');
    // Recognisable, but the new address is not handed to whoever reads the old mailbox.
    expect(notice.text).not.toContain(a.newEmail);
    expect(notice.text).toContain('r***@example.org');
  });

  it('sends a verification link to the new address, which verifies it once', async () => {
    const a = await account();
    expect((await changeOwn(a.token, a.newEmail)).status).toBe(200);
    const mail = await waitForMail(smtp, a.newEmail, 'Confirm your e-mail address');
    expect(mail.text).toContain('https://svc.example.com/d/auth/verify-email#token=');
    const token = linkToken(mail);
    const verified = await daemon.request('POST', '/auth/verify-email', { body: { token } });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body).toEqual({ email: a.newEmail, emailVerified: true });
    expect((await daemon.request('GET', '/auth/me', { token: a.token })).body.emailVerified).toBe(true);
    const again = await daemon.request('POST', '/auth/verify-email', { body: { token } });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('VALIDATION_FAILED');
    expect(daemon.logs.some((line) => line.includes(token))).toBe(false);
  });

  it('records auth.email_changed in the audit log of each organization the user belongs to', async () => {
    const a = await account();
    const beta = await daemon.request('POST', '/orgs/beta/invitations', { token: admin, body: { email: a.email, role: 'viewer' } });
    expect((await daemon.request('POST', `/invitations/${beta.body.token}/accept`, { token: a.token })).status).toBe(200);
    expect((await changeOwn(a.token, a.newEmail)).status).toBe(200);
    for (const org of ['acme', 'beta']) {
      const log = await daemon.request('GET', `/orgs/${org}/audit-log?kind=auth.email_changed`, { token: admin });
      expect(log.status).toBe(200);
      const entry = log.body.items.find((e: { target: { uid: string } }) => e.target.uid === a.uid);
      expect(entry, org).toMatchObject({
        kind: 'auth.email_changed',
        actor: { uid: a.uid, email: a.newEmail },
        target: { uid: a.uid, email: a.newEmail },
        data: { oldEmail: a.email, newEmail: a.newEmail, by: 'self' },
      });
    }
    // An organization the user is not in gets nothing.
    const other = await daemon.request('GET', '/orgs/default/audit-log?kind=auth.email_changed', { token: admin });
    expect(other.body.items.filter((e: { target: { uid: string } }) => e.target.uid === a.uid)).toEqual([]);
  });

  it('records the super admin as the actor of a change it made', async () => {
    const a = await account();
    const adminUid = (await daemon.request('GET', '/auth/me', { token: admin })).body.uid;
    expect((await daemon.request('PATCH', `/system/users/${a.uid}`, { token: admin, body: { email: a.newEmail } })).status).toBe(200);
    const log = await daemon.request('GET', '/orgs/acme/audit-log?kind=auth.email_changed&limit=1', { token: admin });
    expect(log.body.items[0]).toMatchObject({
      actor: { uid: adminUid },
      target: { uid: a.uid },
      data: { oldEmail: a.email, newEmail: a.newEmail, by: 'super_admin' },
    });
  });

  it('refuses an address another account uses, case-insensitively: 409 EMAIL_TAKEN', async () => {
    const a = await account();
    const b = await account();
    for (const res of [
      await changeOwn(a.token, b.email.toUpperCase()),
      await daemon.request('PATCH', `/system/users/${a.uid}`, { token: admin, body: { email: b.email } }),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('CONFLICT');
      expect(res.body.error.details.reason).toBe('EMAIL_TAKEN');
    }
    expect((await daemon.request('GET', '/auth/me', { token: a.token })).body.email).toBe(a.email);
  });

  it('requires the current password: 401 when wrong, 400 when missing; nothing changes', async () => {
    const a = await account();
    const other = await daemon.login(a.email, PASSWORD);
    const wrong = await changeOwn(a.token, a.newEmail, 'not my password');
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('UNAUTHORIZED');
    const missing = await daemon.request('PATCH', '/auth/me', { token: a.token, body: { email: a.newEmail } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.issues).toEqual([{ path: 'currentPassword', message: 'is required to change the e-mail address' }]);
    expect((await daemon.request('GET', '/auth/me', { token: other })).body.email).toBe(a.email);
  });

  it('refuses an account without a password (403, pointing to the identity provider or a super admin)', async () => {
    const a = await account();
    await daemon.deps.db.kysely.updateTable('users').set({ password_hash: null }).where('uid', '=', a.uid).execute();
    const res = await changeOwn(a.token, a.newEmail, 'anything');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect(res.body.error.message).toMatch(/identity provider/);
    expect(res.body.error.message).toMatch(/super admin/);
    // A super admin still can.
    expect((await daemon.request('PATCH', `/system/users/${a.uid}`, { token: admin, body: { email: a.newEmail } })).status).toBe(200);
  });

  it('lets only a super admin use /system/users', async () => {
    const a = await account('admin');
    const res = await daemon.request('PATCH', `/system/users/${a.uid}`, { token: a.token, body: { email: a.newEmail } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect((await daemon.request('GET', '/system/users', { token: a.token })).status).toBe(403);
    const found = await daemon.request('GET', `/system/users?email=${encodeURIComponent(a.email.toUpperCase())}`, { token: admin });
    expect(found.body.items).toEqual([expect.objectContaining({ uid: a.uid, email: a.email, hasPassword: true })]);
    expect((await daemon.request('PATCH', '/system/users/nobody', { token: admin, body: { email: 'x@example.com' } })).status).toBe(404);
  });

  it('never logs the password, the link token or the verification mail', async () => {
    const a = await account();
    expect((await changeOwn(a.token, a.newEmail, PASSWORD)).status).toBe(200);
    const token = linkToken(await waitForMail(smtp, a.newEmail, 'Confirm'));
    expect(daemon.logs.join('\n')).not.toContain(PASSWORD);
    expect(daemon.logs.join('\n')).not.toContain(token);
  });
});

describe.each(DATABASE_KINDS)('e-mail change without SMTP [%s]', (kind) => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
  });
  afterAll(() => daemon.stop());

  it('still changes the address, sends nothing, and a personal access token cannot do it', async () => {
    const admin = await daemon.adminToken();
    const a = await addMember(daemon, 'default', admin, 'quiet@example.com', 'user');
    const pat = await daemon.request('POST', '/auth/tokens', { token: a.token, body: { name: 'x', org: 'default' } });
    const byToken = await daemon.request('PATCH', '/auth/me', { token: pat.body.token, body: { email: 'loud@example.com', currentPassword: PASSWORD } });
    expect(byToken.status).toBe(403);
    const res = await daemon.request('PATCH', '/auth/me', { token: a.token, body: { email: 'loud@example.com', currentPassword: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: 'loud@example.com', emailVerified: false });
    const resend = await daemon.request('POST', '/auth/verify-email/resend', { token: a.token });
    expect(resend.status).toBe(409);
    expect(resend.body.error.details.reason).toBe('MAIL_NOT_CONFIGURED');
  });
});
