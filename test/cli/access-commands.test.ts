import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../support/cli.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';

describe('svc CLI: tokens and e-mail changes', () => {
  let daemon: TestDaemon;
  let env: Record<string, string>;
  let adminEnv: Record<string, string>;
  beforeAll(async () => {
    daemon = await startTestDaemon('sqlite');
    const admin = await daemon.adminToken();
    const ann = await daemon.register('ann@example.com', 'anns password');
    const invited = await daemon.request('POST', '/orgs/default/invitations', { token: admin, body: { email: 'ann@example.com', role: 'viewer' } });
    await daemon.request('POST', `/invitations/${invited.body.token}/accept`, { token: ann.token });
    env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-cli-')), SVC_URL: daemon.url, SVC_TOKEN: ann.token };
    adminEnv = { ...env, SVC_TOKEN: admin };
  });
  afterAll(() => daemon.stop());

  it('has help with an example for each command', async () => {
    for (const args of [
      ['token', 'create'],
      ['token', 'list'],
      ['token', 'revoke'],
      ['account', 'set-email'],
      ['admin', 'user', 'set-email'],
    ]) {
      const help = await runSvc([...args, '--help']);
      expect(help.code, args.join(' ')).toBe(0);
      expect(help.stdout).toContain('Example:');
    }
  });

  it('creates a token (secret printed once), lists it without the secret, and revokes it', async () => {
    const created = await runSvc(['token', 'create', '--name', 'ci', '--org', 'default', '--scope', 'api:read', '--expires', '30d', '--json'], { env });
    expect(created.code, created.stderr).toBe(0);
    const minted = JSON.parse(created.stdout);
    expect(minted).toMatchObject({ name: 'ci', org: 'default', scopes: ['api:read'] });
    expect(minted.token).toMatch(/^svc_pat_/);
    const days = (Date.parse(minted.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);

    // The token works, for reading only (its owner is a viewer and its scope is api:read).
    expect((await daemon.request('GET', '/orgs/default', { token: minted.token })).status).toBe(200);

    const human = await runSvc(['token', 'create', '--name', 'agent', '--org', 'default', '--scope', 'mcp:read'], { env });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^svc_pat_\S+$/m);
    expect(human.stderr).toContain('only time the token is shown');

    const listed = await runSvc(['token', 'list'], { env });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^UID\s+NAME\s+ORGANIZATION\s+SCOPES/);
    expect(listed.stdout).toContain('api:read');
    expect(listed.stdout).not.toContain('svc_pat_');
    const json = JSON.parse((await runSvc(['token', 'list', '--json'], { env })).stdout);
    expect(json.map((t: { name: string }) => t.name).sort()).toEqual(['agent', 'ci']);

    const revoked = await runSvc(['token', 'revoke', minted.uid], { env });
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`token ${minted.uid} revoked`);
    expect((await daemon.request('GET', '/orgs/default', { token: minted.token })).status).toBe(401);
    const again = await runSvc(['token', 'revoke', 'no-such-token'], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('not found');
  });

  it('refuses bad token options as usage errors', async () => {
    expect((await runSvc(['token', 'create', '--org', 'default'], { env })).code).toBe(2);
    expect((await runSvc(['token', 'create', '--name', 'x', '--org', 'default', '--scope', 'root'], { env })).code).toBe(2);
    const bad = await runSvc(['token', 'create', '--name', 'x', '--org', 'default', '--expires', 'soon'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--expires');
    const foreign = await runSvc(['token', 'create', '--name', 'x', '--org', 'elsewhere'], { env });
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain('not found');
  });

  it('changes your own e-mail with the current password from standard input, never prompting without a terminal', async () => {
    const noPassword = await runSvc(['account', 'set-email', 'ann2@example.com'], { env });
    expect(noPassword.code).toBe(2);
    expect(noPassword.stderr).toContain('--password-stdin');
    const wrong = await runSvc(['account', 'set-email', 'ann2@example.com', '--password-stdin'], { env, stdin: 'nope\n' });
    expect(wrong.code).toBe(1);
    const ok = await runSvc(['account', 'set-email', 'ann2@example.com', '--password-stdin', '--json'], { env, stdin: 'anns password\n' });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ email: 'ann2@example.com', emailVerified: false });
  });

  it('lets a super admin change any address by uid or e-mail', async () => {
    const res = await runSvc(['admin', 'user', 'set-email', '--user', 'ann2@example.com', '--email', 'ann3@example.com'], { env: adminEnv });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('changed to ann3@example.com');
    const missing = await runSvc(['admin', 'user', 'set-email', '--user', 'nobody@example.com', '--email', 'x@example.com'], { env: adminEnv });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no account has the e-mail address');
    const notAdmin = await runSvc(['admin', 'user', 'set-email', '--user', 'ann3@example.com', '--email', 'x@example.com'], {
      env: { ...env, SVC_TOKEN: await daemon.login('ann3@example.com', 'anns password') },
    });
    expect(notAdmin.code).toBe(1);
    expect(notAdmin.stderr).toMatch(/super admin/i);
    const taken = await runSvc(['admin', 'user', 'set-email', '--user', 'ann3@example.com', '--email', 'admin@svc.local'], { env: adminEnv });
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('already uses');
  });
});
