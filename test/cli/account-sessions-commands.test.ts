import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../support/cli.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { startTestSmtp, type TestSmtp } from '../support/smtp.js';

describe('svc CLI: account sessions, admin user reset-password', () => {
  let daemon: TestDaemon;
  let env: Record<string, string>;
  beforeAll(async () => {
    daemon = await startTestDaemon('sqlite');
    await daemon.adminToken();
    env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-cli-')), SVC_URL: daemon.url };
    const login = await runSvc(['login', '--email', ADMIN_EMAIL, '--password-stdin'], { env, stdin: `${ADMIN_PASSWORD}\n` });
    expect(login.code, login.stderr).toBe(0);
  });
  afterAll(() => daemon.stop());

  it('documents the commands with an example', async () => {
    const sessions = await runSvc(['account', 'sessions', '--help']);
    expect(sessions.code).toBe(0);
    expect(sessions.stdout).toContain('Example:');
    expect(sessions.stdout).toContain('revoke');
    const reset = await runSvc(['admin', 'user', 'reset-password', '--help']);
    expect(reset.stdout).toContain('--user <uid|email>');
    expect(reset.stdout).toContain('Example:');
  });

  it('lists the sessions, marking the one the CLI uses', async () => {
    const other = await daemon.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const listed = await runSvc(['account', 'sessions', '--json'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    const items = JSON.parse(listed.stdout) as { id: string; current: boolean }[];
    expect(items.length).toBeGreaterThanOrEqual(3);
    expect(items.filter((s) => s.current)).toHaveLength(1);
    const human = await runSvc(['account', 'sessions'], { env });
    expect(human.stdout).toMatch(/ID\s+METHOD\s+CLIENT/);
    expect(human.stdout).toContain('* this session');
    expect((await daemon.request('GET', '/auth/me', { token: other })).status).toBe(200);
  });

  it('ends one session by ID, then every other one with --all', async () => {
    const victim = await daemon.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const bystander = await daemon.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const mine = (await daemon.request('GET', '/auth/sessions', { token: victim })).body.items.find((s: { current: boolean }) => s.current);
    const one = await runSvc(['account', 'sessions', 'revoke', mine.id, '--json'], { env });
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual({ revoked: 1, id: mine.id, current: false });
    expect((await daemon.request('GET', '/auth/me', { token: victim })).status).toBe(401);
    expect((await daemon.request('GET', '/auth/me', { token: bystander })).status).toBe(200);

    const missing = await runSvc(['account', 'sessions', 'revoke', mine.id], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('not found');

    const all = await runSvc(['account', 'sessions', 'revoke', '--all'], { env });
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toMatch(/ended \d+ other sessions?; this one stays signed in/);
    expect((await daemon.request('GET', '/auth/me', { token: bystander })).status).toBe(401);
    const left = JSON.parse((await runSvc(['account', 'sessions', '--json'], { env })).stdout);
    expect(left).toHaveLength(1);
    expect(left[0].current).toBe(true);
  });

  it('refuses both or neither of ID and --all as a usage error', async () => {
    const both = await runSvc(['account', 'sessions', 'revoke', 'abc', '--all'], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('not both');
    const neither = await runSvc(['account', 'sessions', 'revoke'], { env });
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('--all');
    expect((await runSvc(['admin', 'user', 'reset-password'], { env })).code).toBe(2);
  });

  it('prints the reset link when the daemon sends no mail, finding the account by e-mail or uid', async () => {
    const { uid } = await daemon.register('ann@example.com', 'anns password');
    const byEmail = await runSvc(['admin', 'user', 'reset-password', '--user', 'ann@example.com'], { env });
    expect(byEmail.code, byEmail.stderr).toBe(0);
    expect(byEmail.stderr).toContain('sends no mail');
    const url = /(\S+\/d\/reset#token=\S+)/.exec(byEmail.stdout)?.[1];
    expect(url).toBeDefined();
    const byUid = await runSvc(['admin', 'user', 'reset-password', '--user', uid, '--json'], { env });
    expect(byUid.code, byUid.stderr).toBe(0);
    const answer = JSON.parse(byUid.stdout);
    expect(answer).toMatchObject({ userUid: uid, email: 'ann@example.com', mailed: false });
    // The newer link voids the first one.
    const stale = new URLSearchParams(new URL(url!).hash.slice(1)).get('token');
    expect((await daemon.request('POST', '/auth/password-reset/confirm', { body: { token: stale, newPassword: 'anns new password' } })).status).toBe(400);
    const token = new URLSearchParams(new URL(answer.url).hash.slice(1)).get('token');
    expect((await daemon.request('POST', '/auth/password-reset/confirm', { body: { token, newPassword: 'anns new password' } })).status).toBe(204);

    const unknown = await runSvc(['admin', 'user', 'reset-password', '--user', 'nobody@example.com'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no account has the e-mail address nobody@example.com');
  });
});

describe('svc CLI: admin user reset-password with mail', () => {
  let daemon: TestDaemon;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    daemon = await startTestDaemon('sqlite', { env: { SVC_SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await daemon.stop();
    await smtp.close();
  });

  it('mails the link and never prints it', async () => {
    const admin = await daemon.adminToken();
    await daemon.register('bob@example.com', 'bobs password');
    const res = await runSvc(['admin', 'user', 'reset-password', '--user', 'bob@example.com'], { env: { SVC_URL: daemon.url, SVC_TOKEN: admin } });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('was mailed to bob@example.com');
    expect(res.stdout).not.toContain('token=');
    // Registration mailed a verification link first; wait for the reset mail itself.
    for (let i = 0; i < 100 && !smtp.mails.some((m) => m.subject === 'Reset your password'); i++) await new Promise((r) => setTimeout(r, 50));
    const mail = smtp.mails.find((m) => m.subject === 'Reset your password');
    expect(mail?.to).toEqual(['bob@example.com']);
    expect(mail?.text).toContain('/d/reset#token=');
  });
});
