import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileBundleText } from '../../../importers/shared/file-bundle.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { fixtureBundle, fixtureFiles } from '../../importers/blackbox-exporter/fixture-bundle.js';
import { checkCount, checksSnapshot, convertPath } from './helpers.js';

// The daemon runs with SVC_NODE_ROLE=api (test/support/daemon.ts): the fixtures' example.com
// targets are stored, never probed.
describe.each(DATABASE_KINDS)('import from the Blackbox exporter [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { env: { SVC_CHECKS_PER_ORG_LIMIT: '0' } });
    admin = await daemon.adminToken();
  });
  afterAll(() => daemon.stop());

  const convert = (query: string, raw: string) => daemon.request('POST', convertPath(query), { token: admin, raw });
  const files = () => fixtureFiles('probes');
  const withInterval = (interval: string) =>
    fileBundleText(
      files().map(([name, text]): [string, string] => [
        name,
        name === 'prometheus.yml' ? text.replace('scrape_interval: 30s', `scrape_interval: ${interval}`) : text,
      ]),
    );

  it('previews the bundle of prometheus.yml, blackbox.yml and a target file, then applies it the same way', async () => {
    const before = await checksSnapshot(daemon);
    const preview = await convert('source=blackbox-exporter&dryRun=true', fixtureBundle('probes'));
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ source: 'probe-exporter-config', dryRun: true, created: 11, updated: 0, unchanged: 0, skipped: 0 });
    expect(preview.body.checks.map((c: { type: string }) => c.type)).toEqual([
      'http',
      'http',
      'http',
      'http',
      'tcp',
      'tcp',
      'tls',
      'icmp',
      'dns',
      'dns',
      'grpc',
    ]);
    expect(await checksSnapshot(daemon), 'the dry run wrote nothing').toBe(before);

    const applied = await convert('source=probe-exporter-config', fixtureBundle('probes'));
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const { dryRun: _p, ...previewRest } = preview.body;
    const { dryRun: _a, ...appliedRest } = applied.body;
    expect(appliedRest).toEqual(previewRest);

    const ssh = await daemon.request('GET', '/orgs/default/checks/bastion-example-com-22-ssh-banner', { token: admin });
    expect(ssh.body).toMatchObject({
      type: 'tcp',
      target: 'bastion.example.com:22',
      intervalSeconds: 30,
      config: { keyword: { value: 'SSH-2.0-' } },
      thresholds: { timeoutMs: 9500, failuresBeforeDown: 1 },
      labels: { job: 'tcp', env: 'production', 'svc-managed': 'probe-exporter-config' },
    });
  });

  it('re-runs unchanged, and updates in place what the configuration changed', async () => {
    const count = await checkCount(daemon);
    const again = await convert('source=blackbox-exporter', fixtureBundle('probes'));
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 11 });
    const slower = await convert('source=blackbox-exporter', withInterval('45s'));
    expect(slower.body).toMatchObject({ created: 0, unchanged: 1, updated: 10 });
    const icmp = slower.body.checks.find((c: { slug: string }) => c.slug === 'router-example-com-icmp');
    expect(icmp.changes).toEqual([{ field: 'intervalSeconds', from: 30, to: 45 }]);
    expect(await checkCount(daemon)).toBe(count);
  });

  it('converts prometheus.yml alone, each probe skipped until blackbox.yml is given', async () => {
    const prometheus = files().find(([name]) => name === 'prometheus.yml')![1];
    const res = await convert('source=blackbox-exporter&dryRun=true', prometheus);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ created: 0, skipped: 9 });
    expect(res.body.checks[0].message).toContain('give blackbox.yml too');
    expect(res.body.warnings.map((w: { code: string; field?: string }) => `${w.code} ${w.field}`)).toContain('UNSUPPORTED_SETTING file_sd_configs[0].files');
  });

  it('refuses what is not the configuration with 400 INVALID_IMPORT_INPUT, writing nothing', async () => {
    const before = await checksSnapshot(daemon);
    const blackbox = files().find(([name]) => name === 'blackbox.yml')![1];
    const bodies = [blackbox, '{"files": 3}', '{"files": {"a.yml": 1}}', fileBundleText([['a.yml', 'scrape_configs: [']])];
    for (const body of bodies) {
      const res = await convert('source=probe-exporter-config', body);
      expect(res.status, body).toBe(400);
      expect(res.body.error.code).toBe('INVALID_IMPORT_INPUT');
      expect(res.body.error.details).toMatchObject({ source: 'probe-exporter-config' });
    }
    expect((await convert('source=probe-exporter-config', blackbox)).body.error.message).toContain(
      'alone names no targets; give the Prometheus configuration too',
    );
    expect(await checksSnapshot(daemon)).toBe(before);
  });
});
