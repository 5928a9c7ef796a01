import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../support/cli.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';

describe.each(DATABASE_KINDS)('svc incidents, status-pages, orgs and members [%s]', (kind) => {
  let daemon: TestDaemon;
  let env: Record<string, string>;
  let token: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    token = await daemon.adminToken();
    env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-ops-')), SVC_URL: daemon.url, SVC_TOKEN: token };
    for (const body of [
      { name: 'API health', type: 'http', target: 'https://api.example.com/health' },
      { name: 'Database', type: 'tcp', target: 'db.example.com:5432' },
    ]) {
      expect((await daemon.request('POST', '/orgs/default/checks', { token, body })).status).toBe(201);
    }
  });
  afterAll(() => daemon?.stop());

  it('lists, acknowledges and resolves incidents', async () => {
    const opened = await daemon.request('POST', '/orgs/default/incidents', { token, body: { title: 'API down', checkSlug: 'api-health' } });
    const other = await daemon.request('POST', '/orgs/default/incidents', { token, body: { title: 'Disk full' } });
    expect(opened.status).toBe(201);

    const listed = await runSvc(['incidents', 'list'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^UID\s+STATUS\s+CHECK\s+TITLE/);
    expect(listed.stdout).toContain('API down');

    const ack = await runSvc(['incidents', 'ack', opened.body.uid, '--json'], { env });
    expect(ack.code, ack.stderr).toBe(0);
    expect(JSON.parse(ack.stdout)).toMatchObject({ uid: opened.body.uid, status: 'acknowledged', acknowledgedBy: { email: 'admin@svc.local' } });
    const resolved = await runSvc(['incidents', 'resolve', other.body.uid], { env });
    expect(resolved.stdout).toContain(`incident ${other.body.uid} (Disk full) is resolved`);

    const active = JSON.parse((await runSvc(['incidents', 'list', '--json'], { env })).stdout);
    expect(active.map((i: { title: string }) => i.title)).toEqual(['API down']);
    const all = JSON.parse((await runSvc(['incidents', 'list', '--status', 'all', '--json'], { env })).stdout);
    expect(all).toHaveLength(2);
    const byCheck = JSON.parse((await runSvc(['incidents', 'list', '--status', 'all', '--check', 'api-health', '--json'], { env })).stdout);
    expect(byCheck.map((i: { title: string }) => i.title)).toEqual(['API down']);

    const badStatus = await runSvc(['incidents', 'list', '--status', 'closed'], { env });
    expect(badStatus.code).toBe(2);
    const missing = await runSvc(['incidents', 'ack', '01jb2c3d4e5f6g7h8j9k0m1n2p'], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^svc: No incident/);
  });

  it('creates, lists, shows and deletes status pages', async () => {
    const created = await runSvc(['status-pages', 'create', '--title', 'Acme status', '--check', 'api-health', '--check', 'database', '--public', '--json'], {
      env,
    });
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      slug: 'acme-status',
      public: true,
      checks: ['api-health', 'database'],
      url: `${daemon.url}/status/default/acme-status`,
    });
    // The address printed is where the page is read.
    expect((await fetch(JSON.parse(created.stdout).url)).status).toBe(200);

    const listed = await runSvc(['status-pages', 'list'], { env });
    expect(listed.stdout).toMatch(/acme-status\s+Acme status\s+public\s+2/);
    const shown = await runSvc(['status-pages', 'get', 'acme-status'], { env });
    expect(shown.stdout).toContain('checks     api-health, database');
    expect(shown.stdout).toContain(`url        ${daemon.url}/status/default/acme-status`);

    // A value the daemon refuses is a usage error, as if svc had caught it.
    const badSlug = await runSvc(['status-pages', 'create', '--title', 'X', '--slug', 'Not A Slug'], { env });
    expect(badSlug.code).toBe(2);
    expect(badSlug.stderr).toMatch(/^svc: .*slug/);
    const unknownCheck = await runSvc(['status-pages', 'create', '--title', 'Y', '--check', 'nope'], { env });
    expect(unknownCheck.code).toBe(2);

    const refused = await runSvc(['status-pages', 'delete', 'acme-status'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    const deleted = await runSvc(['status-pages', 'delete', 'acme-status', '--yes', '--json'], { env });
    expect(JSON.parse(deleted.stdout)).toEqual({ deleted: 'acme-status', org: 'default' });
    expect((await runSvc(['status-pages', 'list'], { env })).stdout).toContain('no status pages in default');
  });

  it('lists and creates organizations, then org-scoped commands need --org', async () => {
    // A session (not an access token) creates organizations.
    const created = await runSvc(['orgs', 'create', '--name', 'Acme Corp', '--json'], { env });
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ slug: 'acme-corp', name: 'Acme Corp', role: 'owner' });
    const listed = await runSvc(['orgs', 'list'], { env });
    expect(listed.stdout).toMatch(/acme-corp\s+Acme Corp\s+owner/);
    expect(listed.stdout).toMatch(/default\s+.*owner/);

    const ambiguous = await runSvc(['status-pages', 'list'], { env });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('several organizations (acme-corp, default)');
    const chosen = await runSvc(['status-pages', 'list', '--org', 'acme-corp'], { env });
    expect(chosen.code, chosen.stderr).toBe(0);
    const viaEnv = await runSvc(['members', 'list', '--json'], { env: { ...env, SVC_ORG: 'acme-corp' } });
    expect(JSON.parse(viaEnv.stdout).map((m: { email: string }) => m.email)).toEqual(['admin@svc.local']);
  });

  it('invites, lists, changes the role of and removes members', async () => {
    const org = ['--org', 'default'];
    const invited = await runSvc(['members', 'invite', 'bob@example.com', '--role', 'user', ...org], { env });
    expect(invited.code, invited.stderr).toBe(0);
    expect(invited.stdout).toContain('invited bob@example.com to default as user');
    expect(invited.stdout).toMatch(/^https?:\/\/\S+$/m);
    const again = await runSvc(['members', 'invite', 'bob@example.com', '--role', 'user', '--json', ...org], { env });
    const invitationToken = JSON.parse(again.stdout).token as string;
    const bob = await daemon.register('bob@example.com');
    const accepted = await daemon.request('POST', `/invitations/${encodeURIComponent(invitationToken)}/accept`, { token: bob.token });
    expect(accepted.status, JSON.stringify(accepted.body)).toBeLessThan(300);

    const listed = JSON.parse((await runSvc(['members', 'list', '--json', ...org], { env })).stdout);
    expect(listed.map((m: { email: string; role: string }) => `${m.email}:${m.role}`)).toEqual(['admin@svc.local:owner', 'bob@example.com:user']);

    const promoted = await runSvc(['members', 'set-role', 'BOB@example.com', 'admin', ...org], { env });
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(promoted.stdout).toContain('bob@example.com is now admin in default');
    const badRole = await runSvc(['members', 'set-role', 'bob@example.com', 'boss', ...org], { env });
    expect(badRole.code).toBe(2);
    const stranger = await runSvc(['members', 'remove', 'nobody@example.com', '--yes', ...org], { env });
    expect(stranger.code).toBe(2);

    const removed = await runSvc(['members', 'remove', bob.uid, '--yes', ...org], { env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse((await runSvc(['members', 'list', '--json', ...org], { env })).stdout)).toHaveLength(1);
  });
});
