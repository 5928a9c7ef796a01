import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../support/cli.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';

describe('svc CLI: help, sign-in, whoami, hashing, logout', () => {
  let daemon: TestDaemon;
  let env: Record<string, string>;
  beforeAll(async () => {
    daemon = await startTestDaemon('sqlite');
    env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-cli-')), SVC_URL: daemon.url };
  });
  afterAll(() => daemon.stop());

  it('prints help with an example, and usage errors exit 2', async () => {
    const help = await runSvc(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Example:');
    expect(help.stdout).toContain('login');
    const sub = await runSvc(['admin', 'hashing', 'set', '--help']);
    expect(sub.stdout).toContain('argon2.memory=19456');
    expect((await runSvc(['no-such-command'])).code).toBe(2);
    expect((await runSvc(['admin', 'hashing', 'preset', 'fastest'])).code).toBe(2);
  });

  it('says how to sign in when there is no token', async () => {
    const res = await runSvc(['whoami'], { env });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^svc: not signed in to .*svc login/);
    expect(res.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it('reports an unreachable daemon in one line', async () => {
    const res = await runSvc(['whoami', '--url', 'http://127.0.0.1:9', '--token', 'x']);
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain('cannot reach the svc daemon');
  });

  it('refuses to prompt without a TTY and names the flag', async () => {
    const res = await runSvc(['login'], { env });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--email');
  });

  it('signs in the built-in admin, changes its password, and saves the token with mode 0600', async () => {
    const wrong = await runSvc(['login', '--email', 'admin@svc.local', '--password-stdin'], { env, stdin: 'nope\n' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('wrong');
    const res = await runSvc(['login', '--email', 'admin@svc.local', '--password-stdin', '--new-password-stdin'], {
      env,
      stdin: 'svc-admin\nnew-admin-password\n',
    });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('signed in');
    const file = join(env.SVC_CONFIG_DIR, 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const me = await runSvc(['whoami', '--json'], { env });
    expect(me.code).toBe(0);
    expect(JSON.parse(me.stdout)).toMatchObject({ email: 'admin@svc.local', superAdmin: true, mustChangePassword: false });
  });

  it('shows and sets the hashing overrides, refusing bad values with the field named', async () => {
    const shown = await runSvc(['admin', 'hashing', 'show', '--json'], { env });
    expect(JSON.parse(shown.stdout).effective.algorithm).toBe('argon2id');
    const bad = await runSvc(['admin', 'hashing', 'set', 'bcrypt.cost=9'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bcrypt.cost');
    const set = await runSvc(['admin', 'hashing', 'set', 'argon2.time=2', 'rehashOnLogin=false', '--json'], { env });
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ overrides: { argon2: { time: 2 }, rehashOnLogin: false }, pendingRestart: true });
    const preset = await runSvc(['admin', 'hashing', 'preset', 'lighter'], { env });
    expect(preset.code).toBe(0);
    expect(preset.stdout).toContain('memory = 19456');
    expect(preset.stderr).toContain('restart the daemon');
  });

  it('SVC_TOKEN overrides the saved sign-in', async () => {
    const res = await runSvc(['whoami'], { env: { ...env, SVC_TOKEN: 'not-a-token' } });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('svc login');
  });

  it('signs out server-side and forgets the token', async () => {
    const saved = (JSON.parse(readFileSync(join(env.SVC_CONFIG_DIR, 'credentials.json'), 'utf8')) as { profiles: Record<string, { token: string }> }).profiles
      .default;
    expect((await daemon.request('GET', '/auth/me', { token: saved.token })).status).toBe(200);
    const res = await runSvc(['logout'], { env });
    expect(res.code).toBe(0);
    expect(existsSync(join(env.SVC_CONFIG_DIR, 'credentials.json'))).toBe(false);
    expect((await daemon.request('GET', '/auth/me', { token: saved.token })).status).toBe(401);
  });
});

describe('svc daemon', () => {
  it('refuses to start on a bad setting, naming it, with a non-zero exit', async () => {
    const res = await runSvc(['daemon'], {
      env: { SVC_AUTH_PASSWORD_ARGON2_MEMORY: '4096', SVC_DB_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'svc-d-')), 'x.db')}` },
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('SVC_AUTH_PASSWORD_ARGON2_MEMORY');
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
  });
});
