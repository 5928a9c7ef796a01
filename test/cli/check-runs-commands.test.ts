import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../support/cli.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { tokenOf } from '../support/runner.js';

describe('svc CLI: check state, results, uptime and run', () => {
  let daemon: TestDaemon;
  let env: Record<string, string>;
  beforeAll(async () => {
    daemon = await startTestDaemon('sqlite');
    const token = await daemon.adminToken();
    env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-cli-')), SVC_URL: daemon.url, SVC_TOKEN: token };
    const created = await daemon.request('POST', '/orgs/default/checks', {
      token,
      body: { name: 'Backup', type: 'heartbeat', config: { periodSeconds: 3600, graceSeconds: 60 }, thresholds: { failuresBeforeDown: 1 } },
    });
    expect(created.status).toBe(201);
    const ping = tokenOf(created.body.pingUrl);
    expect((await daemon.request('GET', `/ping/${ping}`)).status).toBe(200);
    // A check records one ping a second (SVC_HEARTBEAT_PING_INTERVAL).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await daemon.request('POST', `/ping/${ping}/fail`)).status).toBe(200);
  });
  afterAll(() => daemon.stop());

  it('has help with an example for each command', async () => {
    for (const command of ['results', 'uptime', 'run']) {
      const help = await runSvc(['checks', command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Example:');
    }
  });

  it('lists checks with their state and last result, filtered by state', async () => {
    const list = await runSvc(['checks', 'list'], { env });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/backup\s+heartbeat\s+Backup\s+.*down\s+down 0 ms/);
    const up = await runSvc(['checks', 'list', '--state', 'up', '--json'], { env });
    expect(JSON.parse(up.stdout)).toEqual([]);
    const down = await runSvc(['checks', 'list', '--state', 'down', '--json'], { env });
    expect(JSON.parse(down.stdout).map((c: { slug: string }) => c.slug)).toEqual(['backup']);
  });

  it('shows results newest first, and uptime', async () => {
    const results = await runSvc(['checks', 'results', 'backup'], { env });
    expect(results.code).toBe(0);
    const lines = results.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^AT\s+STATUS\s+LATENCY\s+MESSAGE/);
    expect(lines[1]).toContain('the job reported a failure');
    expect(lines[2]).toMatch(/up\s+0 ms\s+ok/);
    const json = await runSvc(['checks', 'results', 'backup', '--limit', '1', '--json'], { env });
    expect(JSON.parse(json.stdout)).toHaveLength(1);
    const uptime = await runSvc(['checks', 'uptime', 'backup', '--window', '7d'], { env });
    expect(uptime.code).toBe(0);
    expect(uptime.stdout).toContain('backup over 7d: 50% up (2 runs, 1 down)');
    const bad = await runSvc(['checks', 'uptime', 'backup', '--window', '1y'], { env });
    expect(bad.code).toBe(2);
  });

  it('runs a check now: a heartbeat answers its deadline', async () => {
    const run = await runSvc(['checks', 'run', 'backup', '--json'], { env });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'up', message: 'the last ping is on time' });
    const missing = await runSvc(['checks', 'run', 'nothing-here'], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No check with slug "nothing-here"');
  });
});
