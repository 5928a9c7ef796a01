import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../support/cli.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';

describe('svc CLI: checks and check types', () => {
  let daemon: TestDaemon;
  let env: Record<string, string>;
  beforeAll(async () => {
    daemon = await startTestDaemon('sqlite');
    const token = await daemon.adminToken();
    env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-cli-')), SVC_URL: daemon.url, SVC_TOKEN: token };
    const checks = [
      { name: 'API health', type: 'http', target: 'https://api.example.com/health', labels: { team: 'payments', env: 'prod' } },
      { name: 'Checkout', type: 'http', target: 'https://shop.example.com/checkout', labels: { team: 'payments', env: 'staging' } },
      { name: 'Database', type: 'tcp', target: 'db.example.com:5432', labels: { team: 'data' } },
    ];
    for (const body of checks) expect((await daemon.request('POST', '/orgs/default/checks', { token, body })).status).toBe(201);
  });
  afterAll(() => daemon.stop());

  it('has help with an example for each command', async () => {
    for (const args of [['checks', 'list'], ['checks', 'get'], ['checks', 'delete'], ['check-types']]) {
      const help = await runSvc([...args, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Example:');
    }
  });

  it('lists checks as a table, filtered by labels, using the only organization', async () => {
    const all = await runSvc(['checks', 'list'], { env });
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/^SLUG\s+TYPE\s+NAME/);
    expect(all.stdout).toContain('api-health');
    expect(all.stdout).toContain('3 checks');

    const filtered = await runSvc(['checks', 'list', '--label', 'team=payments', '--label', 'env=prod', '--json'], { env });
    expect(filtered.code).toBe(0);
    expect(JSON.parse(filtered.stdout).map((c: { slug: string }) => c.slug)).toEqual(['api-health']);

    const tcp = await runSvc(['checks', 'list', '--type', 'tcp', '--org', 'default', '--json'], { env });
    expect(JSON.parse(tcp.stdout).map((c: { slug: string }) => c.slug)).toEqual(['database']);

    const limited = await runSvc(['checks', 'list', '--limit', '2', '--json'], { env });
    expect(JSON.parse(limited.stdout)).toHaveLength(2);

    const bad = await runSvc(['checks', 'list', '--label', 'nokey'], { env });
    expect(bad.code).toBe(2);
    const unknownType = await runSvc(['checks', 'list', '--type', 'gopher'], { env });
    expect(unknownType.code).toBe(2);
    expect(unknownType.stderr).toContain('unknown check type');
  });

  it('gets one check, and reports an unknown one in a line', async () => {
    const res = await runSvc(['checks', 'get', 'database', '--json'], { env });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ slug: 'database', type: 'tcp', target: 'db.example.com:5432', labels: { team: 'data' } });
    const text = await runSvc(['checks', 'get', 'database'], { env });
    expect(text.stdout).toContain('db.example.com:5432');
    const missing = await runSvc(['checks', 'get', 'nope'], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toMatch(/^svc: No check with slug "nope"/);
  });

  it('deletes only with --yes when it cannot ask', async () => {
    const refused = await runSvc(['checks', 'delete', 'checkout'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    const deleted = await runSvc(['checks', 'delete', 'checkout', '--yes', '--json'], { env });
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ deleted: 'checkout', org: 'default' });
    expect((await daemon.request('GET', '/orgs/default/checks/checkout', { token: env.SVC_TOKEN })).status).toBe(404);
  });

  it('lists the check types and shows one with a sample', async () => {
    const all = await runSvc(['check-types'], { env });
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/^TYPE\s+TITLE\s+TARGET/);
    expect(all.stdout).toContain('heartbeat');
    const http = await runSvc(['check-types', 'http', '--json'], { env });
    const body = JSON.parse(http.stdout);
    expect(body).toMatchObject({ type: 'http', schema: { type: 'object' }, sample: { type: 'http' } });
    const text = await runSvc(['check-types', 'dns'], { env });
    expect(text.stdout).toContain('sample check');
    const unknown = await runSvc(['check-types', 'gopher'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('known types');
  });
});
