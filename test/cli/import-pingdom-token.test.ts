import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../support/cli.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { startFakePingdomApi, type FakePingdomApi } from '../support/fakes/pingdom-api-fake.js';
import { checksSnapshot } from '../daemon/import/helpers.js';

// `svc import --source pingdom --token-env VAR`: the daemon reads the Pingdom API 3.1
// (https://docs.pingdom.com/api/) at SVC_IMPORT_HOSTED_CHECK_API_URL, the protocol-level fake on 127.0.0.1.

const GOOD = 'pd_good_0123456789abcdef';
const REFUSED = 'pd_refused_0123456789abcdef';

describe.each(DATABASE_KINDS)('svc import --source pingdom --token-env [%s]', (kind) => {
  let api: FakePingdomApi;
  let daemon: TestDaemon;
  let env: Record<string, string>;
  beforeAll(async () => {
    api = await startFakePingdomApi({ [GOOD]: 'account' });
    daemon = await startTestDaemon(kind, { env: { SVC_IMPORT_HOSTED_CHECK_API_URL: api.url } });
    env = { SVC_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'svc-cli-pd-')), 'config'), SVC_URL: daemon.url, SVC_TOKEN: await daemon.adminToken() };
  });
  afterAll(async () => {
    await daemon.stop();
    await api.close();
  });

  const svc = async (args: string[], token: string) => {
    const res = await runSvc(['import', '--source', 'pingdom', '--token-env', 'PINGDOM_TOKEN', ...args], {
      env: { ...env, PINGDOM_TOKEN: token },
      timeoutMs: 30_000,
    });
    expect(`${res.stdout}${res.stderr}`).not.toMatch(/pd_(good|refused)_/);
    return res;
  };

  it('previews with --dry-run and applies with --yes; a refused token exits 1 writing nothing', async () => {
    const before = await checksSnapshot(daemon);
    const preview = await svc(['--dry-run', '--json'], GOOD);
    expect(preview.code, preview.stderr).toBe(0);
    expect(JSON.parse(preview.stdout)).toMatchObject({ source: 'hosted-check-api', dryRun: true, created: 4, skipped: 1 });
    expect(await checksSnapshot(daemon)).toBe(before);
    const refused = await svc(['--yes'], REFUSED);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused the token \(HTTP 401\)/);
    expect(await checksSnapshot(daemon)).toBe(before);
    const applied = await svc(['--yes', '--json'], GOOD);
    expect(applied.code, applied.stderr).toBe(0);
    expect(JSON.parse(applied.stdout)).toMatchObject({ dryRun: false, created: 4, skipped: 1 });
  });
});
