import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareCheck } from '../../daemon/secrets/substitute.js';
import { getCheck } from '../../daemon/checks/check-store.js';
import { runSvc } from '../support/cli.js';
import { startPrivatePostgres } from '../support/local-servers.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';

const KUMA_BACKUP = fileURLToPath(new URL('../fixtures/import/uptime-kuma/backup-1.23.json', import.meta.url));
const VALUE = 'analytics-pw-93c1f0e2';

describe.each(DATABASE_KINDS)('svc secrets [%s]', (kind) => {
  let daemon: TestDaemon;
  let env: Record<string, string>;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    const token = await daemon.adminToken();
    env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-cli-')), SVC_URL: daemon.url, SVC_TOKEN: token };
  });
  afterAll(() => daemon?.stop());

  it('has help with an example for each command, and never takes a value as an argument', async () => {
    for (const args of [
      ['secrets', 'set'],
      ['secrets', 'list'],
      ['secrets', 'delete'],
      ['admin', 'secrets', 'rotate'],
    ]) {
      const help = await runSvc([...args, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Example:');
    }
    const extra = await runSvc(['secrets', 'set', 'A_NAME', 'the-value'], { env });
    expect(extra.code).toBe(2);
    const noTty = await runSvc(['secrets', 'set', 'A_NAME'], { env });
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toContain('--stdin or --from-env VAR is required');
    expect((await runSvc(['secrets', 'set', 'lower'], { env, stdin: 'x' })).code).toBe(2);
  });

  it('imports a Kuma backup whose database password was dropped; after svc secrets set the check gets it at run time', async () => {
    const imported = await runSvc(['import', '--source', 'uptime-kuma', '--file', KUMA_BACKUP, '--yes', '--json'], { env, timeoutMs: 60_000 });
    expect(imported.code, imported.stderr).toBe(0);
    const report = JSON.parse(imported.stdout);
    const warning = report.warnings.find((w: { slug?: string; code: string }) => w.slug === 'analytics-db' && w.code === 'SECRET_DROPPED');
    expect(warning.message).toContain('set secret ANALYTICS_DB_PASSWORD (svc secrets set ANALYTICS_DB_PASSWORD)');

    const before = await runSvc(['secrets', 'list', '--json'], { env });
    expect(JSON.parse(before.stdout)).toEqual([]);
    const set = await runSvc(['secrets', 'set', 'ANALYTICS_DB_PASSWORD', '--stdin'], { env, stdin: `${VALUE}\n` });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout + set.stderr).toContain('set secret ANALYTICS_DB_PASSWORD');
    const fromEnv = await runSvc(['secrets', 'set', 'FINANCE_SQL_PASSWORD', '--from-env', 'FINANCE_PW', '--json'], {
      env: { ...env, FINANCE_PW: 'finance-pw-1' },
    });
    expect(JSON.parse(fromEnv.stdout)).toMatchObject({ name: 'FINANCE_SQL_PASSWORD', created: true });

    const listed = JSON.parse((await runSvc(['secrets', 'list', '--json'], { env })).stdout);
    expect(listed).toEqual([
      expect.objectContaining({ name: 'ANALYTICS_DB_PASSWORD', usedBy: ['analytics-db'] }),
      expect.objectContaining({ name: 'FINANCE_SQL_PASSWORD', usedBy: ['finance-sql'] }),
    ]);
    const table = await runSvc(['secrets', 'list'], { env });
    expect(table.stdout).toMatch(/^NAME\s+UPDATED\s+USED BY/);

    // Re-running the import refers to the same secret: nothing new to set.
    const again = await runSvc(['import', '--source', 'uptime-kuma', '--file', KUMA_BACKUP, '--yes', '--json'], { env, timeoutMs: 60_000 });
    expect(again.code, again.stderr).toBe(0);
    const org = await daemon.deps.db.kysely.selectFrom('organizations').select('uid').where('slug', '=', 'default').executeTakeFirstOrThrow();
    const stored = await getCheck(daemon.deps.db.kysely, org.uid, 'analytics-db');
    expect(stored?.config).toMatchObject({ password: '{{secrets.ANALYTICS_DB_PASSWORD}}' });
    // What the runner does before a probe (the seam prepareCheck): the value, and only there.
    const prepared = await prepareCheck(daemon.deps, org.uid, stored!);
    expect(prepared.check.config).toMatchObject({ password: VALUE, username: 'analytics' });
    expect(prepared.secretValues).toEqual([VALUE]);

    const shown = await runSvc(['checks', 'get', 'analytics-db', '--json'], { env });
    expect(shown.stdout).toContain('{{secrets.ANALYTICS_DB_PASSWORD}}');
    expect(shown.stdout + set.stdout + table.stdout + daemon.logs.join('\n')).not.toContain(VALUE);

    const deleted = await runSvc(['secrets', 'delete', 'ANALYTICS_DB_PASSWORD', '--yes'], { env });
    expect(deleted.code).toBe(0);
    await expect(prepareCheck(daemon.deps, org.uid, stored!)).rejects.toThrow('secret ANALYTICS_DB_PASSWORD is not set');
  });

  it('runs the imported check with its secret against a real PostgreSQL that asks for the password', async () => {
    const server = await startPrivatePostgres(VALUE);
    try {
      // The import keeps the reference; the check is pointed at the local server, its password untouched.
      const pointed = await daemon.request('PATCH', '/orgs/default/checks/analytics-db', {
        token: env.SVC_TOKEN,
        body: { target: `127.0.0.1:${server.port}`, config: { database: 'postgres', username: 'postgres', query: 'SELECT 1' } },
      });
      expect(pointed.status, JSON.stringify(pointed.body)).toBe(200);
      expect(pointed.body.config.password).toBe('{{secrets.ANALYTICS_DB_PASSWORD}}');
      expect(pointed.body.missingSecrets).toEqual(['ANALYTICS_DB_PASSWORD']);

      const unset = await runSvc(['checks', 'run', 'analytics-db', '--json'], { env });
      expect(JSON.parse(unset.stdout)).toMatchObject({ status: 'down', message: 'secret ANALYTICS_DB_PASSWORD is not set' });

      expect((await runSvc(['secrets', 'set', 'ANALYTICS_DB_PASSWORD', '--stdin'], { env, stdin: 'not-the-password' })).code).toBe(0);
      const wrong = await runSvc(['checks', 'run', 'analytics-db', '--json'], { env });
      expect(JSON.parse(wrong.stdout).status).toBe('down');
      expect(JSON.parse(wrong.stdout).message).toMatch(/authentication failed/);
      expect(wrong.stdout).not.toContain('not-the-password');

      expect((await runSvc(['secrets', 'set', 'ANALYTICS_DB_PASSWORD', '--stdin'], { env, stdin: VALUE })).code).toBe(0);
      const run = await runSvc(['checks', 'run', 'analytics-db', '--json'], { env });
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ status: 'up' });
      const results = await daemon.request('GET', '/orgs/default/checks/analytics-db/results', { token: env.SVC_TOKEN });
      expect(results.body.items.map((item: { status: string }) => item.status)).toEqual(['up', 'down', 'down']);
      expect(JSON.stringify(results.body) + run.stdout + daemon.logs.join('\n')).not.toContain(VALUE);
    } finally {
      await server.stop();
    }
  });

  it('rotates as a super admin', async () => {
    const rotated = await runSvc(['admin', 'secrets', 'rotate', '--json'], { env });
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(JSON.parse(rotated.stdout)).toEqual({ reencrypted: 0, keyId: daemon.deps.keyring.currentId });
  });
});
