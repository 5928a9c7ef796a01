import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../support/cli.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { startFakeHealthchecksApi, type FakeHealthchecksApi } from '../support/fakes/healthchecks-api-fake.js';
import { checksSnapshot } from '../daemon/import/helpers.js';

// `svc import --source healthchecks --token-env VAR`: the key goes to the daemon, which reads
// GET /api/v3/checks/ of the Healthchecks.io Management API v3 (https://healthchecks.io/docs/api/)
// at SVC_IMPORT_CRON_MONITOR_API_URL; with --local the CLI reads it itself. The API is the
// protocol-level fake on 127.0.0.1. Keys are 32 characters, as the API requires.

const FULL = 'hcw_full_0123456789abcdefghijklm';
const READ_ONLY = 'hcr_read_0123456789abcdefghijklm';
const WRONG = 'hcx_wrong_0123456789abcdefghijkl';

const keyless = (text: string) => expect(text).not.toMatch(/hc[wrx]_[a-z]+_0123456789/);

describe.each(DATABASE_KINDS)('svc import --source healthchecks --token-env [%s]', (kind) => {
  let api: FakeHealthchecksApi;
  let daemon: TestDaemon;
  let env: Record<string, string>;
  beforeAll(async () => {
    api = await startFakeHealthchecksApi({ [FULL]: 'full', [READ_ONLY]: 'read-only' });
    daemon = await startTestDaemon(kind, { env: { SVC_IMPORT_CRON_MONITOR_API_URL: api.url } });
    const token = await daemon.adminToken();
    env = { SVC_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'svc-cli-hc-')), 'config'), SVC_URL: daemon.url, SVC_TOKEN: token };
  });
  afterAll(async () => {
    await daemon.stop();
    await api.close();
  });

  const svc = async (args: string[], key: string, extraEnv: Record<string, string> = {}) => {
    const res = await runSvc(['import', '--source', 'healthchecks', '--token-env', 'HC_API_KEY', ...args], {
      env: { ...env, HC_API_KEY: `${key}\n`, ...extraEnv },
      timeoutMs: 30_000,
    });
    keyless(res.stdout);
    keyless(res.stderr);
    return res;
  };

  it('previews with --dry-run, then applies with --yes, the key read by the daemon', async () => {
    const before = await checksSnapshot(daemon);
    const preview = await svc(['--dry-run'], FULL);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toContain('Preview of the token in $HC_API_KEY as cron-monitor-api into default (nothing written)');
    expect(preview.stdout).toContain('would create 4, would update 0, 0 unchanged, 1 skipped');
    expect(await checksSnapshot(daemon)).toBe(before);
    expect(api.requests.at(-1)?.headers['x-api-key']).toBe(FULL);

    const applied = await svc(['--yes', '--json'], FULL);
    expect(applied.code, applied.stderr).toBe(0);
    expect(JSON.parse(applied.stdout)).toMatchObject({ source: 'cron-monitor-api', dryRun: false, created: 4, skipped: 1 });
    const again = await svc(['--yes', '--json'], FULL);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, unchanged: 4 });
    keyless(await checksSnapshot(daemon));
  });

  it('imports with a read-only key, with the warning that keeping the ping URLs needs the full key', async () => {
    const res = await svc(['--dry-run', '--json'], READ_ONLY);
    expect(res.code, res.stderr).toBe(0);
    const preview = JSON.parse(res.stdout);
    expect(preview.checks.map((c: { slug: string }) => c.slug)).toEqual(['filesystem-backup', 'database-backup']);
    const dropped = preview.warnings.filter((w: { code: string }) => w.code === 'SECRET_DROPPED');
    expect(dropped.map((w: { message: string }) => w.message)).toEqual([
      expect.stringMatching(/read-only API key.*import with the full API key/),
      expect.stringMatching(/read-only API key.*import with the full API key/),
    ]);
  });

  it('says the key was refused, exits 1 and writes nothing', async () => {
    const before = await checksSnapshot(daemon);
    const res = await svc(['--yes'], WRONG);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/refused the API key \(HTTP 401\)/);
    expect(res.stdout).toBe('');
    expect(await checksSnapshot(daemon)).toBe(before);
  });

  it('with --local, reads the API itself at SVC_IMPORT_CRON_MONITOR_API_URL', async () => {
    const calls = api.requests.length;
    const offline = { SVC_URL: 'http://127.0.0.1:9', SVC_TOKEN: '', SVC_IMPORT_CRON_MONITOR_API_URL: api.url };
    const local = await svc(['--local', '--json'], FULL, offline);
    expect(local.code, local.stderr).toBe(0);
    expect(JSON.parse(local.stdout)).toMatchObject({ source: 'cron-monitor-api', dryRun: true, created: 4, skipped: 1 });
    expect(api.requests.length).toBe(calls + 1);
    const refused = await svc(['--local'], WRONG, offline);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/the cron monitor's Management API at http:\/\/127\.0\.0\.1:\d+ refused the API key \(HTTP 401\)/);
  });
});
