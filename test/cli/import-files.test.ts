import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureFiles } from '../importers/blackbox-exporter/fixture-bundle.js';
import { checkCount, checksSnapshot } from '../daemon/import/helpers.js';
import { runSvc } from '../support/cli.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';

// `svc import --file A --file B` as a process: the files go to the daemon as one file bundle.
// The daemon runs with SVC_NODE_ROLE=api (test/support/daemon.ts): no example.com target is probed.
describe.each(DATABASE_KINDS)('svc import with several files [%s]', (kind) => {
  let daemon: TestDaemon;
  let env: Record<string, string>;
  let dir: string;
  let paths: Record<string, string>;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { env: { SVC_CHECKS_PER_ORG_LIMIT: '0' } });
    dir = mkdtempSync(join(tmpdir(), 'svc-cli-import-files-'));
    env = { SVC_CONFIG_DIR: join(dir, 'config'), SVC_URL: daemon.url, SVC_TOKEN: await daemon.adminToken() };
    mkdirSync(join(dir, 'targets'));
    paths = {};
    for (const [name, text] of fixtureFiles('probes')) {
      paths[name] = join(dir, name === 'ssh-hosts.yml' ? 'targets' : '', name);
      writeFileSync(paths[name], text);
    }
    writeFileSync(join(dir, 'targets', 'prometheus.yml'), 'scrape_configs: []\n');
  });
  afterAll(() => daemon.stop());

  // Each case runs the CLI a few times as a process: generous on a busy machine.
  const SLOW = 120_000;
  const svc = (args: string[]) => runSvc(['import', ...args], { env, timeoutMs: 60_000 });
  const files = () => ['--file', paths['prometheus.yml'], '--file', paths['blackbox.yml'], '--file', paths['ssh-hosts.yml']];

  it(
    'previews prometheus.yml, blackbox.yml and a target file as one import, writing nothing',
    async () => {
      const before = await checksSnapshot(daemon);
      const res = await svc(['--source', 'blackbox-exporter', ...files(), '--dry-run', '--json']);
      expect(res.code, res.stderr).toBe(0);
      const preview = JSON.parse(res.stdout);
      expect(preview).toMatchObject({ source: 'probe-exporter-config', dryRun: true, created: 11, skipped: 0 });
      expect(await checksSnapshot(daemon)).toBe(before);

      const withoutTargets = JSON.parse(
        (await svc(['--source', 'blackbox-exporter', '--file', paths['prometheus.yml'], '--file', paths['blackbox.yml'], '--dry-run', '--json'])).stdout,
      );
      expect(withoutTargets.created).toBe(9);
      expect(withoutTargets.warnings).toContainEqual(expect.objectContaining({ item: 'tcp', code: 'UNSUPPORTED_SETTING', field: 'file_sd_configs[0].files' }));
    },
    SLOW,
  );

  it(
    'applies with --yes (exit 3 under --strict: settings were left out), and re-runs unchanged',
    async () => {
      const applied = await svc(['--source', 'probe-exporter-config', ...files(), '--yes', '--strict']);
      expect(applied.code, applied.stderr).toBe(3);
      expect(applied.stdout).toContain('imported into default: create 11, update 0, 0 unchanged, 0 skipped');
      const count = await checkCount(daemon);
      const again = await svc(['--source', 'blackbox-exporter', ...files(), '--yes', '--json']);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, updated: 0, unchanged: 11 });
      expect(await checkCount(daemon)).toBe(count);
    },
    SLOW,
  );

  it(
    'converts the same bundle with --local, without the daemon',
    async () => {
      const res = await runSvc(['import', '--source', 'blackbox-exporter', ...files(), '--local', '--json'], {
        env: { SVC_CONFIG_DIR: env.SVC_CONFIG_DIR },
        timeoutMs: 60_000,
      });
      expect(res.code, res.stderr).toBe(0);
      expect(JSON.parse(res.stdout)).toMatchObject({ dryRun: true, created: 11 });
    },
    SLOW,
  );

  it(
    'refuses several files for a single-file source, and two files of the same name (exit 2)',
    async () => {
      const single = await svc(['--source', 'gatus', '--file', paths['prometheus.yml'], '--file', paths['blackbox.yml'], '--dry-run']);
      expect(single.code).toBe(2);
      expect(single.stderr).toContain('this source reads one file');
      const twice = await svc([
        '--source',
        'blackbox-exporter',
        '--file',
        paths['prometheus.yml'],
        '--file',
        join(dir, 'targets', 'prometheus.yml'),
        '--dry-run',
      ]);
      expect(twice.code).toBe(2);
      expect(twice.stderr).toContain('have the same name prometheus.yml');
    },
    SLOW,
  );

  it(
    'imports a saved Pingdom listing with one --file',
    async () => {
      const res = await svc(['--source', 'pingdom', '--file', 'test/fixtures/import/pingdom/details.json', '--dry-run', '--json']);
      expect(res.code, res.stderr).toBe(0);
      expect(JSON.parse(res.stdout)).toMatchObject({ source: 'hosted-check-api', created: 8 });
    },
    SLOW,
  );
});
