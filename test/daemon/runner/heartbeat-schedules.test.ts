import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { runImport } from '../../../daemon/import/run-import.js';
import type { Runner } from '../../../daemon/runner/runner.js';
import { IMPORT_REGISTRY } from '../../../importers/registry.js';
import { buildDatabase } from '../../fixtures/import/uptime-kuma/build-database.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { testRunner, tokenOf } from '../../support/runner.js';
import { convertPath } from '../import/helpers.js';

// Cron schedules across a daylight-saving change, a run's start and end, exit statuses, and
// the ping URLs of Uptime Kuma and Healthchecks.io answering for checks imported from them.

const HEALTHCHECKS = readFileSync(new URL('../../fixtures/import/healthchecks/checks.json', import.meta.url));
const KUMA_TOKEN = 'pK3v9QxLm2ZtR8bW4nY6cJ1hF5dG7sA0';

describe.each(DATABASE_KINDS)('heartbeat schedules, runs and foreign ping URLs [%s]', (kind) => {
  // Saturday before the last Sunday of March: Berlin moves from CET (+1) to CEST (+2) at 02:00.
  const clock = manualClock(new Date('2026-03-28T00:30:00Z'));
  let daemon: TestDaemon;
  let admin: string;
  let runner: Runner;

  const check = async (slug: string) => (await daemon.request('GET', `/orgs/default/checks/${slug}`, { token: admin })).body;
  const at = (iso: string) => clock.set(new Date(iso));
  const later = (ms: number) => clock.advance(ms);
  /** A request to a path outside the API (the foreign ping URLs). */
  const raw = async (method: string, path: string, body?: string) => {
    const response = await fetch(`${daemon.url}${path}`, { method, body });
    return { status: response.status, text: await response.text(), headers: response.headers };
  };
  const create = async (slug: string, config: Record<string, unknown>) => {
    const created = await daemon.request('POST', '/orgs/default/checks', {
      token: admin,
      body: { name: slug, type: 'heartbeat', intervalSeconds: 60, config, thresholds: { failuresBeforeDown: 1 } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return tokenOf((await check(slug)).pingUrl);
  };
  const importAs = async (source: string, input: Uint8Array | string) => {
    const answer = await daemon.request('POST', convertPath(`source=${source}`), { token: admin, raw: input });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };

  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { clock });
    admin = await daemon.adminToken();
    runner = testRunner(daemon, clock);
  });
  afterAll(() => daemon.stop());

  it('expects a cron heartbeat by its next local time across the spring change (02:00 that does not exist is 03:00)', async () => {
    const token = await create('nightly', { schedule: '0 2 * * *', timezone: 'Europe/Berlin', graceSeconds: 300 });
    // Saturday 02:00 CET.
    at('2026-03-28T01:00:00Z');
    expect((await daemon.request('GET', `/ping/${token}`)).status).toBe(200);
    // Sunday: 02:00 does not exist; the run is expected at 03:00 CEST (01:00Z), 5 minutes' grace.
    at('2026-03-29T01:04:00Z');
    await runner.tick();
    expect(await check('nightly')).toMatchObject({ state: 'up', lastResult: { status: 'up' } });
    at('2026-03-29T01:06:00Z');
    await runner.tick();
    expect(await check('nightly')).toMatchObject({
      state: 'down',
      lastResult: { status: 'down', message: expect.stringContaining('expected by 2026-03-29T01:00:00.000Z (schedule "0 2 * * *" in Europe/Berlin)') },
    });
    at('2026-03-29T01:07:00Z');
    expect((await daemon.request('GET', `/ping/${token}`)).status).toBe(200);
    // Monday 02:00 CEST is 00:00Z, only 23 hours after Sunday's 03:00: a 24-hour period would still wait.
    at('2026-03-30T00:04:00Z');
    await runner.tick();
    expect((await check('nightly')).state).toBe('up');
    at('2026-03-30T00:06:00Z');
    await runner.tick();
    expect(await check('nightly')).toMatchObject({ state: 'down', lastResult: { message: expect.stringContaining('2026-03-30T00:00:00.000Z') } });
  });

  it('refuses a heartbeat with both a period and a schedule, a bad cron expression or time zone', async () => {
    for (const config of [
      { periodSeconds: 60, schedule: '0 2 * * *' },
      {},
      { schedule: '0 2 * *' },
      { schedule: '0 25 * * *' },
      { schedule: '0 2 * * *', timezone: 'Mars/Olympus' },
      { periodSeconds: 60, timezone: 'UTC' },
    ]) {
      const answer = await daemon.request('POST', '/orgs/default/checks', { token: admin, body: { name: 'Bad', type: 'heartbeat', config } });
      expect(answer.status, JSON.stringify(config)).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('measures a run from its start to its success ping', async () => {
    at('2026-04-01T10:00:00Z');
    const token = await create('backup', { periodSeconds: 3600, graceSeconds: 600 });
    expect((await daemon.request('POST', `/ping/${token}/start`)).body).toEqual({ ok: true, recorded: true });
    expect((await check('backup')).lastResult).toBeNull();
    later(4_500);
    expect((await daemon.request('GET', `/ping/${token}`)).status).toBe(200);
    expect(await check('backup')).toMatchObject({ state: 'up', lastResult: { status: 'up', latencyMs: 4_500, message: 'ok' } });
  });

  it('records a run that started and did not finish within the grace time as down', async () => {
    const token = tokenOf((await check('backup')).pingUrl);
    later(60_000);
    expect((await daemon.request('GET', `/ping/${token}/start`)).status).toBe(200);
    later(600_000);
    await runner.tick();
    expect((await check('backup')).state).toBe('up');
    later(61_000);
    await runner.tick();
    expect(await check('backup')).toMatchObject({
      state: 'down',
      lastResult: { status: 'down', message: 'the run that started 661 s ago did not finish within the grace time of 600 s' },
    });
    // The job finally ends: its duration is the latency, and the run is over.
    later(2_000);
    expect((await daemon.request('GET', `/ping/${token}/0`)).status).toBe(200);
    expect(await check('backup')).toMatchObject({ state: 'up', lastResult: { latencyMs: 663_000 } });
    later(61_000);
    await runner.tick();
    expect((await check('backup')).state).toBe('up');
  });

  it('records an exit status, keeps a POST body as the message with the token withheld, and refuses a status over 255', async () => {
    const token = tokenOf((await check('backup')).pingUrl);
    later(2_000);
    expect((await daemon.request('GET', `/ping/${token}/3`)).status).toBe(200);
    expect((await check('backup')).lastResult).toMatchObject({ status: 'down', message: 'the job exited with status 3' });
    later(2_000);
    const log = `rsync: 12 files\nerror: disk full\ncalled https://svc.example.com/api/v1/ping/${token}/1\n${'x'.repeat(20_000)}`;
    expect((await daemon.request('POST', `/ping/${token}/1`, { raw: log, headers: { 'content-type': 'text/plain' } })).status).toBe(200);
    const message: string = (await check('backup')).lastResult.message;
    expect(message).toMatch(/^rsync: 12 files\nerror: disk full\n\[withheld: contained a secret\]\nxxx/);
    expect(message).not.toContain(token.slice(0, 8));
    expect(Buffer.byteLength(message)).toBeLessThanOrEqual(10_000);
    const bad = await daemon.request('GET', `/ping/${token}/256`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('keeps the push token of a monitor imported from a Kuma database, and answers its push URL as Kuma does', async () => {
    const database = await buildDatabase(
      '2.5',
      `INSERT INTO monitor (id, name, type, active, interval, push_token) VALUES (1, 'Cron push', 'push', 1, 300, '${KUMA_TOKEN}');`,
    );
    const preview = await daemon.request('POST', convertPath('source=uptime-kuma&dryRun=true'), { token: admin, raw: database });
    expect(JSON.stringify(preview.body)).not.toContain(KUMA_TOKEN);
    const imported = await importAs('uptime-kuma', database);
    expect(imported).toMatchObject({ created: 1 });
    expect(JSON.stringify(imported)).not.toContain(KUMA_TOKEN);
    expect((await check('cron-push')).pingUrl).toMatch(new RegExp(`/api/v1/ping/${KUMA_TOKEN}$`));

    later(2_000);
    const up = await raw('GET', `/api/push/${KUMA_TOKEN}?status=up&msg=OK&ping=`);
    expect(up).toMatchObject({ status: 200, text: '{"ok":true}' });
    expect(await check('cron-push')).toMatchObject({ state: 'up', lastResult: { status: 'up', message: 'ok', latencyMs: 0 } });
    later(2_000);
    expect((await raw('POST', `/api/push/${KUMA_TOKEN}?status=down&msg=backup%20failed&ping=12.5`)).status).toBe(200);
    expect(await check('cron-push')).toMatchObject({ state: 'down', lastResult: { status: 'down', message: 'backup failed', latencyMs: 13 } });
    expect(await raw('GET', '/api/push/no-such-token')).toMatchObject({ status: 404, text: '{"ok":false,"msg":"Monitor not found or not active."}' });
    // A re-run keeps the token.
    expect(await importAs('uptime-kuma', database)).toMatchObject({ unchanged: 1 });
    expect((await check('cron-push')).pingUrl).toMatch(new RegExp(`${KUMA_TOKEN}$`));
  });

  it('keeps the UUIDs of checks imported from Healthchecks.io, and answers its ping URLs as it does', async () => {
    const imported = await importAs('healthchecks', HEALTHCHECKS);
    expect(imported).toMatchObject({ source: 'cron-monitor-api', created: 4, skipped: 1 });
    const uuid = '803f680d-e89b-492b-82ef-2be7b774a92d';
    expect((await check('database-backup')).pingUrl).toMatch(new RegExp(`/ping/${uuid}$`));

    later(2_000);
    const failed = await raw('GET', `/ping/${uuid}/1`);
    expect(failed).toMatchObject({ status: 200, text: 'OK' });
    expect(failed.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(failed.headers.get('access-control-allow-origin')).toBe('*');
    expect(await check('database-backup')).toMatchObject({ state: 'down', lastResult: { status: 'down', message: 'the job exited with status 1' } });
    later(2_000);
    expect(await raw('POST', `/ping/${uuid}/start`)).toMatchObject({ status: 200, text: 'OK' });
    later(3_000);
    expect(await raw('POST', `/ping/${uuid}`, 'all good')).toMatchObject({ status: 200, text: 'OK' });
    expect(await check('database-backup')).toMatchObject({ state: 'up', lastResult: { status: 'up', latencyMs: 3_000, message: 'all good' } });
    expect(await raw('HEAD', `/ping/${uuid}/log`)).toMatchObject({ status: 200 });
    expect(await raw('GET', `/ping/${uuid}/256`)).toMatchObject({ status: 400, text: 'invalid url format' });
    expect(await raw('GET', '/ping/00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 404, text: 'not found' });
    // A ping sooner than SVC_HEARTBEAT_PING_INTERVAL is refused like one to svc's own URL.
    expect(await raw('GET', `/ping/${uuid}`)).toMatchObject({ status: 429, text: 'rate limited' });
  });

  it('gives an imported check a fresh token, with a warning, when another check holds its token already', async () => {
    const database = await buildDatabase(
      '2.5',
      `INSERT INTO monitor (id, name, type, active, interval, push_token) VALUES (1, 'Same token', 'push', 1, 60, '803f680d-e89b-492b-82ef-2be7b774a92d');`,
    );
    const imported = await importAs('uptime-kuma', database);
    expect(imported).toMatchObject({ created: 1 });
    expect(imported.warnings).toContainEqual(expect.objectContaining({ slug: 'same-token', code: 'SECRET_DROPPED', field: 'pingToken' }));
    expect(JSON.stringify(imported)).not.toContain('803f680d');
    expect((await check('same-token')).pingUrl).toMatch(/\/ping\/[A-Za-z0-9_-]{22}$/);
    expect((await check('database-backup')).pingUrl).toMatch(/803f680d-e89b-492b-82ef-2be7b774a92d$/);
  });

  it('keeps a token for one of two imports that bring it at once in two organizations; the other warns (no 500)', async () => {
    const token = 'concurrent-kuma-push-token';
    const database = await buildDatabase(
      '2.5',
      `INSERT INTO monitor (id, name, type, active, interval, push_token) VALUES (1, 'Race', 'push', 1, 60, '${token}');`,
    );
    const convert = await IMPORT_REGISTRY['selfhosted-monitor-db'].load();
    const result = await convert(database);
    const orgs: string[] = [];
    for (const slug of ['race-a', 'race-b']) {
      expect((await daemon.request('POST', '/orgs', { token: admin, body: { slug, name: slug } })).status).toBe(201);
      orgs.push((await daemon.deps.db.kysely.selectFrom('organizations').select('uid').where('slug', '=', slug).executeTakeFirstOrThrow()).uid);
    }
    // Both transactions run at once (the endpoint's conversions seldom overlap enough to show it).
    const answers = await Promise.all(orgs.map((org) => runImport(daemon.deps, org, 'selfhosted-monitor-db', result, { dryRun: false })));
    expect(answers.filter((answer) => answer.warnings.some((warning) => warning.code === 'SECRET_DROPPED'))).toHaveLength(1);
    const urls = await Promise.all(
      ['race-a', 'race-b'].map(async (org) => (await daemon.request('GET', `/orgs/${org}/checks/race`, { token: admin })).body.pingUrl as string),
    );
    expect(urls.filter((url) => url.endsWith(`/${token}`))).toHaveLength(1);
  });
});
