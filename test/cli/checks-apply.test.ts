import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../support/cli.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';

const FILE_V1 = `
defaults: &defaults
  type: http
  intervalSeconds: 60
  labels: { team: payments }
checks:
  - <<: *defaults
    name: API health
    target: https://api.example.com/health
  - <<: *defaults
    slug: checkout
    name: Checkout
    target: https://shop.example.com/checkout
  - name: Database
    type: tcp
    target: db.example.com:5432
`;

describe.each(DATABASE_KINDS)('svc checks apply and export [%s]', (kind) => {
  let daemon: TestDaemon;
  let env: Record<string, string>;
  let dir: string;
  const slugs = async () =>
    ((await daemon.request('GET', '/orgs/default/checks?limit=500', { token: env.SVC_TOKEN })).body.items as { slug: string }[]).map((c) => c.slug).sort();
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    dir = mkdtempSync(join(tmpdir(), 'svc-apply-'));
    env = { SVC_CONFIG_DIR: dir, SVC_URL: daemon.url, SVC_TOKEN: await daemon.adminToken() };
    // A check made by hand: apply leaves it alone, even with --prune.
    const manual = await daemon.request('POST', '/orgs/default/checks', {
      token: env.SVC_TOKEN,
      body: { name: 'Manual', type: 'tcp', target: 'manual.example.com:22' },
    });
    expect(manual.status).toBe(201);
  });
  afterAll(() => daemon?.stop());

  it('previews with --dry-run and writes nothing', async () => {
    const file = write('v1.yaml', FILE_V1);
    const res = await runSvc(['checks', 'apply', '-f', file, '--dry-run'], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('+ api-health');
    expect(res.stdout).toContain('+ checkout');
    expect(res.stdout).toContain('+ database');
    expect(res.stdout).toContain('3 to create, 0 to update, 0 to delete, 0 unchanged (dry run: nothing written)');
    expect(await slugs()).toEqual(['manual']);
  });

  it('creates the checks with the managed label, and a second run changes nothing', async () => {
    const file = write('v1.yaml', FILE_V1);
    const first = await runSvc(['checks', 'apply', '-f', file, '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      org: 'default',
      dryRun: false,
      created: ['api-health', 'checkout', 'database'],
      updated: [],
      deleted: [],
    });
    expect(await slugs()).toEqual(['api-health', 'checkout', 'database', 'manual']);
    const stored = await daemon.request('GET', '/orgs/default/checks/checkout', { token: env.SVC_TOKEN });
    expect(stored.body.labels).toEqual({ team: 'payments', 'svc-managed': 'apply' });

    const again = await runSvc(['checks', 'apply', '-f', file, '--json'], { env });
    expect(JSON.parse(again.stdout)).toMatchObject({ created: [], updated: [], deleted: [], unchanged: ['api-health', 'checkout', 'database'] });
    const after = await daemon.request('GET', '/orgs/default/checks/checkout', { token: env.SVC_TOKEN });
    expect(after.body.updatedAt).toBe(stored.body.updatedAt);
  });

  it('shows field-level changes, keeps dropped checks without --prune and deletes only managed ones with it', async () => {
    const v2 = write(
      'v2.yaml',
      `checks:
  - name: API health
    type: http
    target: https://api.example.com/health
    intervalSeconds: 30
    labels: { team: payments }
  - name: Checkout
    type: http
    target: https://shop.example.com/checkout
    intervalSeconds: 60
    labels: { team: shop }
    description: The shop's checkout
`,
    );
    const kept = await runSvc(['checks', 'apply', '-f', v2], { env });
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toContain('~ api-health');
    expect(kept.stdout).toContain('intervalSeconds: 60 → 30');
    expect(kept.stdout).toContain('labels.team: "payments" → "shop"');
    expect(kept.stdout).toContain('description: (none) → "The shop\'s checkout"');
    expect(kept.stdout).toContain('1 managed check not in the file kept (database); --prune deletes them');
    expect(await slugs()).toEqual(['api-health', 'checkout', 'database', 'manual']);
    expect((await daemon.request('GET', '/orgs/default/checks/api-health', { token: env.SVC_TOKEN })).body.intervalSeconds).toBe(30);

    const preview = await runSvc(['checks', 'apply', '-f', v2, '--prune', '--dry-run'], { env });
    expect(preview.stdout).toContain('- database');
    expect(preview.stdout).not.toContain('- manual');
    expect(await slugs()).toEqual(['api-health', 'checkout', 'database', 'manual']);

    const pruned = await runSvc(['checks', 'apply', '-f', v2, '--prune', '--json'], { env });
    expect(JSON.parse(pruned.stdout)).toMatchObject({ deleted: ['database'], unchanged: ['api-health', 'checkout'] });
    expect(await slugs()).toEqual(['api-health', 'checkout', 'manual']);

    // Dropping a field removes it (the update is a merge patch with null).
    const v3 = write('v3.yaml', readFileSync(v2, 'utf8').replace("    description: The shop's checkout\n", ''));
    const dropped = await runSvc(['checks', 'apply', '-f', v3, '--json'], { env });
    expect(JSON.parse(dropped.stdout).updated).toEqual([{ slug: 'checkout', changes: [{ path: 'description', from: "The shop's checkout" }] }]);
    expect((await daemon.request('GET', '/orgs/default/checks/checkout', { token: env.SVC_TOKEN })).body.description).toBeUndefined();
  });

  it('refuses an invalid file as a whole, listing every problem, and writes nothing', async () => {
    const before = await slugs();
    const bad = write(
      'bad.yaml',
      `checks:
  - name: New one
    type: http
    target: https://new.example.com
  - name: Broken
    type: gopher
  - name: Worse
    type: http
    target: https://worse.example.com
    intervalSeconds: -5
  - just a string
`,
    );
    const res = await runSvc(['checks', 'apply', '-f', bad], { env });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('is not valid; nothing was changed');
    expect(res.stderr).toContain('checks[1]');
    expect(res.stderr).toContain('checks[2]');
    expect(res.stderr).toContain('checks[3]: must be a mapping');
    expect(res.stderr).not.toContain('checks[0]');
    expect(await slugs()).toEqual(before);

    const notYaml = await runSvc(['checks', 'apply', '-f', write('broken.yaml', 'checks: [a, b\n')], { env });
    expect(notYaml.code).toBe(1);
    expect(notYaml.stderr).toContain('is not valid YAML');
    const noList = await runSvc(['checks', 'apply', '-f', write('nolist.yaml', 'endpoints: []\n')], { env });
    expect(noList.code).toBe(1);
    expect(noList.stderr).toContain('must hold a "checks" list');
    const missing = await runSvc(['checks', 'apply'], { env });
    expect(missing.code).toBe(2);
    const duplicate = await runSvc(
      ['checks', 'apply', '-f', write('dup.yaml', 'checks:\n  - {name: A, type: tcp, target: "a:1"}\n  - {name: A, type: tcp, target: "b:1"}\n')],
      { env },
    );
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('the slug "a" is given to more than one check');
    expect(await slugs()).toEqual(before);
  });

  it('exports the format apply reads: applying an export changes nothing but taking unmanaged checks over', async () => {
    const exported = await runSvc(['checks', 'export'], { env });
    expect(exported.code, exported.stderr).toBe(0);
    const document = load(exported.stdout) as { checks: { slug: string; labels: Record<string, string>; createdAt?: string }[] };
    expect(document.checks.map((c) => c.slug).sort()).toEqual(['api-health', 'checkout', 'manual']);
    expect(document.checks.every((c) => !('svc-managed' in c.labels) && c.createdAt === undefined)).toBe(true);

    const file = join(dir, 'exported.yaml');
    const toFile = await runSvc(['checks', 'export', '--label', 'team=shop', '-o', file], { env });
    expect(toFile.code).toBe(0);
    expect((load(readFileSync(file, 'utf8')) as { checks: { slug: string }[] }).checks.map((c) => c.slug)).toEqual(['checkout']);
    expect(JSON.parse((await runSvc(['checks', 'apply', '-f', file, '--json'], { env })).stdout).unchanged).toEqual(['checkout']);

    const all = write('all.yaml', exported.stdout);
    const takeOver = await runSvc(['checks', 'apply', '-f', all, '--dry-run'], { env });
    expect(takeOver.stdout).toContain('~ manual  (not managed yet');
    expect(takeOver.stdout).toContain('labels.svc-managed: (none) → "apply"');
    expect(takeOver.stdout).toContain('0 to create, 1 to update, 0 to delete, 2 unchanged');

    const json = await runSvc(['checks', 'export', '--json'], { env });
    expect(JSON.parse(json.stdout).checks).toHaveLength(3);
    const stdin = await runSvc(['checks', 'apply', '-f', '-', '--json', '--dry-run'], { env, stdin: json.stdout });
    expect(JSON.parse(stdin.stdout)).toMatchObject({ updated: [{ slug: 'manual' }], unchanged: ['api-health', 'checkout'] });
  });
});
