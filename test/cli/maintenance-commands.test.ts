import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../support/cli.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';

// `svc maintenance list|create|delete` as a process against a real daemon.

describe.each(DATABASE_KINDS)('svc maintenance [%s]', (kind) => {
  let daemon: TestDaemon;
  let env: Record<string, string>;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    const token = await daemon.adminToken();
    env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-cli-')), SVC_URL: daemon.url, SVC_TOKEN: token };
    const created = await daemon.request('POST', '/orgs/default/checks', { token, body: { name: 'Checkout', type: 'http', target: 'https://example.com' } });
    expect(created.status).toBe(201);
  });
  afterAll(() => daemon?.stop());

  it('has help with an example for each command', async () => {
    for (const verb of ['list', 'create', 'delete']) {
      const help = await runSvc(['maintenance', verb, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Example:');
    }
  });

  it('creates a weekly window in a time zone, lists it, and deletes it', async () => {
    const created = await runSvc(
      [
        'maintenance',
        'create',
        '--title',
        'Sunday backups',
        '--start',
        '2099-03-22T02:00:00+01:00',
        '--duration',
        '1h30m',
        '--recurrence',
        'FREQ=WEEKLY;BYDAY=SU',
        '--timezone',
        'Europe/Berlin',
        '--check',
        'checkout',
        '--label',
        'team=shop',
        '--json',
      ],
      { env },
    );
    expect(created.code, created.stderr).toBe(0);
    const window = JSON.parse(created.stdout);
    expect(window).toMatchObject({
      title: 'Sunday backups',
      startsAt: '2099-03-22T01:00:00.000Z',
      endsAt: '2099-03-22T02:30:00.000Z',
      recurrence: 'FREQ=WEEKLY;BYDAY=SU',
      timezone: 'Europe/Berlin',
      checks: ['checkout'],
      labels: { team: 'shop' },
    });

    const table = await runSvc(['maintenance', 'list'], { env });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^UID\s+TITLE\s+NEXT\s+REPEATS\s+COVERS/);
    expect(table.stdout).toContain('Sunday backups');
    expect(table.stdout).toContain('checkout, team=shop');
    const forCheck = JSON.parse((await runSvc(['maintenance', 'list', '--check', 'checkout', '--json'], { env })).stdout);
    expect(forCheck.map((w: { uid: string }) => w.uid)).toEqual([window.uid]);

    const deleted = await runSvc(['maintenance', 'delete', window.uid, '--yes'], { env });
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(JSON.parse((await runSvc(['maintenance', 'list', '--json'], { env })).stdout)).toEqual([]);
  });

  it('refuses a window without an end or without what it covers, and reports the daemon’s 400', async () => {
    const noEnd = await runSvc(['maintenance', 'create', '--title', 'x', '--start', '2099-01-01T00:00:00Z', '--check', 'checkout'], { env });
    expect(noEnd.code).toBe(2);
    expect(noEnd.stderr).toContain('--end TIME or --duration');
    const nothing = await runSvc(['maintenance', 'create', '--title', 'x', '--start', '2099-01-01T00:00:00Z', '--duration', '1h'], { env });
    expect(nothing.code).toBe(2);
    const badRule = await runSvc(
      ['maintenance', 'create', '--title', 'x', '--start', '2099-01-01T00:00:00Z', '--duration', '1h', '--all-checks', '--recurrence', 'FREQ=SOMETIMES'],
      { env },
    );
    expect(badRule.code).not.toBe(0);
    expect(badRule.stderr).toContain('recurrence');
  });
});
