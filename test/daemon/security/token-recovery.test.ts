import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { addMember } from '../../support/members.js';
import { startTestSmtp, type ReceivedMail, type TestSmtp } from '../../support/smtp.js';

const BASE_URL = 'http://svc.test';

/** Personal access tokens end with account recovery, and a password or address change offers to end them. */
describe.each(DATABASE_KINDS)('personal access tokens and account recovery [%s]', (kind) => {
  let daemon: TestDaemon;
  let smtp: TestSmtp;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    daemon = await startTestDaemon(kind, { env: { SVC_SMTP_URL: smtp.url, SVC_BASE_URL: BASE_URL } });
  });
  afterAll(async () => {
    await daemon?.stop();
    await smtp?.close();
  });

  async function mailTo(to: string, subject: string, after = 0): Promise<ReceivedMail> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = smtp.mails.slice(after).find((m) => m.to.includes(to) && m.subject === subject);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail "${subject}" to ${to}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** An account that is a member of `default`, with a session and a token named `name`. */
  async function accountWithToken(email: string, name: string) {
    const { token: session } = await addMember(daemon, email, 'user');
    const minted = await daemon.request('POST', '/auth/tokens', { token: session, body: { name, org: 'default' } });
    expect(minted.status).toBe(201);
    expect((await daemon.request('GET', '/orgs/default', { token: minted.body.token })).status).toBe(200);
    return { session, token: minted.body.token as string };
  }
  const works = async (token: string) => (await daemon.request('GET', '/orgs/default', { token })).status;

  it('a password reset revokes every personal access token', async () => {
    const { token } = await accountWithToken('recover@example.com', 'laptop');
    const before = smtp.mails.length;
    expect((await daemon.request('POST', '/auth/password-reset', { body: { email: 'recover@example.com' } })).status).toBe(202);
    const link = /[?#]token=([A-Za-z0-9_%-]+)/.exec((await mailTo('recover@example.com', 'Reset your password', before)).text)![1];
    expect(
      (await daemon.request('POST', '/auth/password-reset/confirm', { body: { token: decodeURIComponent(link), newPassword: 'recovered-123' } })).status,
    ).toBe(204);
    expect(await works(token)).toBe(401);
    expect((await mailTo('recover@example.com', 'Your password was reset', before)).text).toContain('every personal access token');
  });

  it('a password change keeps tokens unless asked, and the notice lists the ones still live', async () => {
    const { session, token } = await accountWithToken('changer@example.com', 'ci-runner');
    let before = smtp.mails.length;
    expect(
      (await daemon.request('POST', '/auth/password', { token: session, body: { currentPassword: 'password-123', newPassword: 'password-456' } })).status,
    ).toBe(204);
    expect(await works(token)).toBe(200);
    expect((await mailTo('changer@example.com', 'Your password was changed', before)).text).toContain('- ci-runner (organization default');
    before = smtp.mails.length;
    const res = await daemon.request('POST', '/auth/password', {
      token: session,
      body: { currentPassword: 'password-456', newPassword: 'password-789', revokeTokens: true },
    });
    expect(res.status).toBe(204);
    expect(await works(token)).toBe(401);
    expect((await mailTo('changer@example.com', 'Your password was changed', before)).text).toContain('No personal access token of the account is live.');
  });

  it('an e-mail change keeps tokens unless asked, and the notice lists the ones still live', async () => {
    const { session, token } = await accountWithToken('mover@example.com', 'deploy-bot');
    let before = smtp.mails.length;
    expect((await daemon.request('PATCH', '/auth/me', { token: session, body: { email: 'moved@example.com', currentPassword: 'password-123' } })).status).toBe(
      200,
    );
    expect(await works(token)).toBe(200);
    expect((await mailTo('mover@example.com', 'The e-mail address of your account was changed', before)).text).toContain('- deploy-bot (organization default');
    before = smtp.mails.length;
    const res = await daemon.request('PATCH', '/auth/me', {
      token: session,
      body: { email: 'moved-again@example.com', currentPassword: 'password-123', revokeTokens: true },
    });
    expect(res.status).toBe(200);
    expect(await works(token)).toBe(401);
    expect((await mailTo('moved@example.com', 'The e-mail address of your account was changed', before)).text).toContain(
      'No personal access token of the account is live.',
    );
  });
});
