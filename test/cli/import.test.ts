import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureDatabase } from '../fixtures/import/uptime-kuma/build-database.js';
import { runSvc } from '../support/cli.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { checkCount, checksSnapshot, gatusConfig, kumaWithIntervals } from '../daemon/import/helpers.js';

const uptimeRobot = JSON.stringify({
  stat: 'ok',
  pagination: { offset: 0, limit: 50, total: 2 },
  monitors: [
    { id: 1, friendly_name: 'Homepage', url: 'https://www.example.com', type: 1, sub_type: '', port: '', interval: 300, status: 2 },
    { id: 2, friendly_name: 'Mail', url: 'mail.example.com', type: 4, sub_type: 4, port: '', interval: 300, status: 2 },
  ],
});

/**
 * A pass-through in front of the daemon that records each request (method and path with
 * query), so a test can count the uploads the CLI makes.
 */
async function startRecorder(target: string): Promise<{ url: string; seen: string[]; server: Server }> {
  const seen: string[] = [];
  const server = createServer(async (req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([key]) => !['host', 'content-length', 'connection'].includes(key))) as Record<
      string,
      string
    >;
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

describe('svc import', () => {
  let daemon: TestDaemon;
  let env: Record<string, string>;
  let dir: string;
  let files: Record<'gatus' | 'clean' | 'kuma' | 'broken' | 'robot', string>;
  beforeAll(async () => {
    daemon = await startTestDaemon('sqlite');
    const token = await daemon.adminToken();
    dir = mkdtempSync(join(tmpdir(), 'svc-cli-import-'));
    env = { SVC_CONFIG_DIR: join(dir, 'config'), SVC_URL: daemon.url, SVC_TOKEN: token };
    files = {
      gatus: join(dir, 'gatus.yaml'),
      clean: join(dir, 'clean.yaml'),
      kuma: join(dir, 'kuma.db'),
      broken: join(dir, 'broken.db'),
      robot: join(dir, 'robot.json'),
    };
    writeFileSync(files.gatus, gatusConfig());
    writeFileSync(files.clean, 'endpoints:\n  - name: Clean\n    url: https://clean.example.com\n    conditions: ["[STATUS] == 200"]\n');
    writeFileSync(files.kuma, await buildFixtureDatabase('2.5', 'kuma-2.5.sql'));
    writeFileSync(files.broken, Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(4096, 7)]));
    writeFileSync(files.robot, uptimeRobot);
  });
  afterAll(() => daemon.stop());

  const svc = (args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) =>
    runSvc(['import', ...args], { env: { ...env, ...options.env }, stdin: options.stdin, timeoutMs: 30_000 });

  it('has help with examples', async () => {
    const help = await runSvc(['import', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Example:');
    expect(help.stdout).toContain('--token-env');
    expect(help.stdout).toContain('svc import --source healthchecks --token-env HEALTHCHECKS_API_KEY --dry-run');
    expect(help.stdout).toMatch(
      /--token-env <var>\s+hosted-monitor-api \(betterstack\), cron-monitor-api\s+\(healthchecks\) and hosted-check-api \(pingdom\)[\s\S]*SVC_IMPORT_CRON_MONITOR_API_URL[\s\S]*SVC_IMPORT_HOSTED_CHECK_API_URL/,
    );
  });

  it('refuses wrong usage with exit code 2 before reading anything', async () => {
    const cases: [string[], RegExp][] = [
      [['--source', 'nagios', '--file', files.gatus], /--source must be one of configfile-monitor \(gatus\)/],
      [['--source', 'gatus'], /--file PATH or --stdin/],
      [['--source', 'gatus', '--file', files.gatus, '--stdin'], /cannot be used together/],
      [['--source', 'gatus', '--token-env', 'X'], /--token-env is for --source cron-monitor-api, hosted-check-api or hosted-monitor-api;/],
      [['--source', 'betterstack', '--token-env', 'NOT_SET_ANYWHERE', '--dry-run'], /NOT_SET_ANYWHERE is empty or not set/],
    ];
    for (const [args, message] of cases) {
      const res = await svc(args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toMatch(message);
    }
    const missing = await svc(['--source', 'gatus', '--file', join(dir, 'nope.yaml'), '--dry-run']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no such file');
  });

  it('previews with --dry-run: counts, the changes, and a warnings table grouped by code; nothing written', async () => {
    const before = await checksSnapshot(daemon);
    const res = await svc(['--source', 'gatus', '--file', files.gatus, '--dry-run']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('Preview of');
    expect(res.stdout).toContain('would create 2, would update 0, 0 unchanged, 1 skipped');
    expect(res.stdout).toMatch(/ACTION\s+SLUG\s+TYPE\s+NAME/);
    expect(res.stdout).toMatch(/create\s+api-health\s+http\s+API health/);
    expect(res.stdout).toMatch(/CODE\s+COUNT\nSECRET_DROPPED\s+1\nUNSUPPORTED_TYPE\s+1/);
    expect(res.stdout).toMatch(/SECRET_DROPPED \(1\)\nITEM\s+FIELD\s+MESSAGE\nAPI health\s+client\.oauth2/);
    expect(await checksSnapshot(daemon)).toBe(before);
  });

  it('refuses to apply without a terminal unless --yes (exit 2), also with --json', async () => {
    const before = await checksSnapshot(daemon);
    for (const extra of [[], ['--json']]) {
      const res = await svc(['--source', 'gatus', '--file', files.gatus, ...extra]);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('refusing to import without a terminal');
      expect(res.stdout).toBe('');
    }
    expect(await checksSnapshot(daemon)).toBe(before);
  });

  it('applies with --yes; re-running creates and duplicates nothing; --json prints only the response', async () => {
    const applied = await svc(['--source', 'configfile-monitor', '--file', files.gatus, '--yes']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('imported into default: create 2, update 0, 0 unchanged, 1 skipped');
    const count = await checkCount(daemon);

    const again = await svc(['--source', 'gatus', '--file', files.gatus, '--yes', '--json']);
    expect(again.code).toBe(0);
    const response = JSON.parse(again.stdout);
    expect(response).toMatchObject({ source: 'configfile-monitor', dryRun: false, created: 0, updated: 0, unchanged: 2, skipped: 1 });
    expect(response.checks.map((c: { action: string }) => c.action)).toEqual(['unchanged', 'unchanged', 'skip']);
    expect(await checkCount(daemon)).toBe(count);

    const preview = JSON.parse((await svc(['--source', 'gatus', '--file', files.gatus, '--dry-run', '--json'])).stdout);
    expect(preview).toMatchObject({ dryRun: true, created: 0, unchanged: 2 });
  });

  it('--strict exits 3 when anything was skipped, and 0 when nothing was', async () => {
    const preview = await svc(['--source', 'gatus', '--file', files.gatus, '--dry-run', '--strict']);
    expect(preview.code).toBe(3);
    const applied = await svc(['--source', 'gatus', '--file', files.gatus, '--yes', '--strict', '--json']);
    expect(applied.code).toBe(3);
    expect(JSON.parse(applied.stdout).skipped).toBe(1);
    const clean = await svc(['--source', 'gatus', '--file', files.clean, '--yes', '--strict']);
    expect(clean.code, clean.stderr).toBe(0);
  });

  it('--strict exits 3 when a setting was left out, so that a check may reach another verdict than the source', async () => {
    const offline = { SVC_URL: 'http://127.0.0.1:9', SVC_TOKEN: '' };
    const dns = (operator: string) => ({
      id: 1,
      name: 'TXT',
      type: 'dns',
      hostname: 'x.test',
      interval: 60,
      dns_resolve_type: 'TXT',
      dns_resolve_server: '127.0.0.1',
      conditions: JSON.stringify([{ type: 'expression', variable: 'record', operator, value: 'spf1' }]),
    });
    const backup = (operator: string) => JSON.stringify({ version: '2.0.0', notificationList: [], monitorList: [dns(operator)] });
    const dir = mkdtempSync(join(tmpdir(), 'svc-strict-'));
    writeFileSync(join(dir, 'unsupported.json'), backup('matches_regex'));
    writeFileSync(join(dir, 'supported.json'), backup('contains'));
    const leftOut = await svc(['--source', 'uptime-kuma', '--file', join(dir, 'unsupported.json'), '--local', '--strict', '--json'], { env: offline });
    expect(leftOut.code, leftOut.stderr).toBe(3);
    expect(JSON.parse(leftOut.stdout)).toMatchObject({ skipped: 0, warnings: [{ code: 'UNSUPPORTED_SETTING', field: 'conditions' }] });
    const kept = await svc(['--source', 'uptime-kuma', '--file', join(dir, 'supported.json'), '--local', '--strict'], { env: offline });
    expect(kept.code, kept.stderr).toBe(0);
    const lenient = await svc(['--source', 'uptime-kuma', '--file', join(dir, 'unsupported.json'), '--local'], { env: offline });
    expect(lenient.code, lenient.stderr).toBe(0);
  });

  it('reads the self-hosted database here, sends its raw bytes, and refuses a damaged one before sending', async () => {
    const res = await svc(['--source', 'uptime-kuma', '--file', files.kuma, '--yes', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const response = JSON.parse(res.stdout);
    expect(response.source).toBe('selfhosted-monitor-db');
    expect(response.created).toBeGreaterThan(5);
    const local = JSON.parse((await svc(['--source', 'uptime-kuma', '--file', files.kuma, '--local', '--json'])).stdout);
    expect(local.checks.map((c: { slug?: string }) => c.slug)).toEqual(response.checks.map((c: { slug?: string }) => c.slug));

    const before = await checksSnapshot(daemon);
    const broken = await svc(['--source', 'uptime-kuma', '--file', files.broken, '--yes']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`cannot import ${files.broken} as selfhosted-monitor-db`);
    expect(await checksSnapshot(daemon)).toBe(before);
  });

  it('reads standard input', async () => {
    const res = await svc(['--source', 'uptimerobot', '--stdin', '--dry-run', '--json'], { stdin: uptimeRobot });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ source: 'uptime-api-monitor', dryRun: true, created: 2 });
  });

  it('--local converts with the importer modules alone: no daemon, no token, a preview only', async () => {
    const offline = { SVC_URL: 'http://127.0.0.1:9', SVC_TOKEN: '' };
    const res = await svc(['--source', 'uptimerobot', '--file', files.robot, '--local', '--json'], { env: offline });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ source: 'uptime-api-monitor', dryRun: true, created: 2, skipped: 0 });
    const text = await svc(['--source', 'gatus', '--file', files.gatus, '--local', '--strict'], { env: offline });
    expect(text.code).toBe(3);
    expect(text.stdout).toContain('--local only previews');
    const bad = await svc(['--source', 'uptimerobot', '--file', files.gatus, '--local'], { env: offline });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/cannot import .* as uptime-api-monitor: expected/);
  });

  it('goes to the organization a personal access token belongs to when none is named', async () => {
    const admin = await daemon.adminToken();
    expect((await daemon.request('POST', '/orgs', { token: admin, body: { slug: 'second', name: 'Second' } })).status).toBe(201);
    const minted = await daemon.request('POST', '/auth/tokens', { token: admin, body: { name: 'ci', org: 'second' } });
    expect(minted.status).toBe(201);
    const res = await svc(['--source', 'gatus', '--file', files.clean, '--yes', '--json'], { env: { SVC_TOKEN: minted.body.token } });
    expect(res.code, res.stderr).toBe(0);
    expect(await checkCount(daemon, 'second')).toBe(1);
    // With a session and several organizations, `default` is the one.
    const viaSession = await svc(['--source', 'gatus', '--file', files.clean, '--dry-run', '--json']);
    expect(JSON.parse(viaSession.stdout)).toMatchObject({ created: 0, unchanged: 1 });
  });

  it('--yes uploads once and applies; a token goes to the organization /auth/me names, without probing others', async () => {
    const recorder = await startRecorder(daemon.url);
    try {
      const admin = await daemon.adminToken();
      await daemon.request('POST', '/orgs', { token: admin, body: { slug: 'third', name: 'Third' } });
      const minted = await daemon.request('POST', '/auth/tokens', { token: admin, body: { name: 'ci-third', org: 'third' } });
      const file = join(dir, 'once.yaml');
      writeFileSync(file, 'endpoints:\n  - name: Once\n    url: https://once.example.com\n    conditions: ["[STATUS] == 200"]\n');
      const res = await svc(['--source', 'gatus', '--file', file, '--yes', '--json'], { env: { SVC_URL: recorder.url, SVC_TOKEN: minted.body.token } });
      expect(res.code, res.stderr).toBe(0);
      expect(JSON.parse(res.stdout)).toMatchObject({ dryRun: false, created: 1 });
      expect(recorder.seen).toEqual(['GET /api/v1/auth/me', 'POST /api/v1/orgs/third/checks/import/convert?source=configfile-monitor']);
    } finally {
      recorder.server.close();
    }
  });

  it('--take-over lets the import change a check made by hand; without it the check is reported in conflict', async () => {
    const admin = await daemon.adminToken();
    await daemon.request('POST', '/orgs/default/checks', { token: admin, body: { name: 'Mine', type: 'http', target: 'https://mine.example.com' } });
    const file = join(dir, 'mine.yaml');
    writeFileSync(file, 'endpoints:\n  - name: Mine\n    url: https://mine.example.com/imported\n    conditions: ["[STATUS] == 200"]\n');
    const left = await svc(['--source', 'gatus', '--file', file, '--yes', '--org', 'default']);
    expect(left.code, left.stderr).toBe(0);
    expect(left.stdout).toContain('1 in conflict');
    expect((await daemon.request('GET', '/orgs/default/checks/mine', { token: admin })).body.target).toBe('https://mine.example.com');
    const taken = await svc(['--source', 'gatus', '--file', file, '--yes', '--org', 'default', '--take-over', '--json']);
    expect(JSON.parse(taken.stdout)).toMatchObject({ updated: 1, conflicts: 0 });
    expect((await daemon.request('GET', '/orgs/default/checks/mine', { token: admin })).body.target).toBe('https://mine.example.com/imported');
  });

  it("a re-run keeps what was changed here, previews each field it changes and each conflict, and --overwrite takes the source's", async () => {
    const admin = await daemon.adminToken();
    await daemon.request('POST', '/orgs', { token: admin, body: { slug: 'rerun', name: 'Rerun' } });
    const file = join(dir, 'rerun.db');
    writeFileSync(file, await kumaWithIntervals());
    const run = (...extra: string[]) => svc(['--source', 'uptime-kuma', '--file', file, '--org', 'rerun', ...extra]);
    expect((await run('--yes')).code).toBe(0);
    const patch = (slug: string, body: unknown) => daemon.request('PATCH', `/orgs/rerun/checks/${slug}`, { token: admin, body });
    expect((await patch('core-switch-v3', { enabled: false })).status).toBe(200);
    expect((await patch('intranet-ntlm', { intervalSeconds: 120 })).status).toBe(200);

    const same = await run('--dry-run');
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toContain('would update 0');
    expect(same.stdout).not.toContain('Changes to existing checks');

    writeFileSync(file, await kumaWithIntervals({ timeServer: 300, intranet: 300 }));
    const preview = await run('--dry-run');
    expect(preview.stdout).toContain('would update 1');
    expect(preview.stdout).toContain("1 check with changes here kept over the source's (--overwrite takes the source's)");
    expect(preview.stdout).toMatch(/~ time-server\n {4}intervalSeconds: 60 → 300\n/);
    expect(preview.stdout).toMatch(
      /~ intranet-ntlm\n {2}! intervalSeconds: changed here and in the source: here 120, source 300 \(kept here; --overwrite takes the source's\)/,
    );
    expect(preview.stdout).not.toContain('core-switch-v3');

    const taken = await run('--yes', '--overwrite');
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stdout).toContain('update 2');
    const checks = (await daemon.request('GET', '/orgs/rerun/checks', { token: admin })).body.items as {
      slug: string;
      intervalSeconds: number;
      enabled: boolean;
    }[];
    const bySlug = new Map(checks.map((check) => [check.slug, check]));
    expect(bySlug.get('intranet-ntlm')).toMatchObject({ intervalSeconds: 300 });
    expect(bySlug.get('time-server')).toMatchObject({ intervalSeconds: 300 });
    expect(bySlug.get('core-switch-v3')).toMatchObject({ enabled: false });
  });

  it('takes the hosted listings saved as JSON with --file, on the daemon and with --local', async () => {
    const file = join(dir, 'hosted.json');
    writeFileSync(
      file,
      JSON.stringify({
        data: [
          {
            id: '5',
            type: 'monitor',
            attributes: { monitor_type: 'status', url: 'https://saved.example.com', pronounceable_name: 'Saved', check_frequency: 60 },
          },
        ],
      }),
    );
    const preview = await svc(['--source', 'betterstack', '--file', file, '--dry-run', '--json', '--org', 'default']);
    expect(preview.code, preview.stderr).toBe(0);
    expect(JSON.parse(preview.stdout)).toMatchObject({ source: 'hosted-monitor-api', dryRun: true, created: 1 });
    const local = await svc(['--source', 'betterstack', '--file', file, '--local', '--json'], { env: { SVC_URL: 'http://127.0.0.1:9', SVC_TOKEN: '' } });
    expect(local.code, local.stderr).toBe(0);
    expect(JSON.parse(local.stdout).checks).toEqual([{ slug: 'saved', name: 'Saved', type: 'http', action: 'create' }]);
  });
});
