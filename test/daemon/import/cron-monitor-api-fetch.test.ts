import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { startFakeHealthchecksApi, type FakeHealthchecksApi } from '../../support/fakes/healthchecks-api-fake.js';
import { nextSlot } from '../../../daemon/runner/schedule.js';
import { tokenOf } from '../../support/runner.js';
import { checksSnapshot, convertPath } from './helpers.js';

// The cron-monitor-api import given an API key: the daemon reads GET /api/v3/checks/ of the
// Healthchecks.io Management API v3 (https://healthchecks.io/docs/api/) with the key in X-Api-Key,
// at SVC_IMPORT_CRON_MONITOR_API_URL, here the protocol-level fake on 127.0.0.1 mounted below a
// path as a self-hosted instance would be. Keys are 32 characters, as the API requires.

const FULL = 'hcw_full_0123456789abcdefghijklm';
const READ_ONLY = 'hcr_read_0123456789abcdefghijklm';
const WRONG = 'hcx_wrong_0123456789abcdefghijkl';
const BUSY = 'hcl_limit_0123456789abcdefghijkl';

const keyless = (value: unknown) => expect(JSON.stringify(value)).not.toMatch(/hc[wrxl]_[a-z]+_0123456789/);

describe.each(DATABASE_KINDS)('import from the cron monitor API with a key [%s]', (kind) => {
  let api: FakeHealthchecksApi;
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    api = await startFakeHealthchecksApi({ [FULL]: 'full', [READ_ONLY]: 'read-only', [BUSY]: 'rate-limited' }, '/hc');
    daemon = await startTestDaemon(kind, { env: { SVC_IMPORT_CRON_MONITOR_API_URL: api.url } });
    admin = await daemon.adminToken();
  });
  afterAll(async () => {
    await daemon.stop();
    await api.close();
  });

  const convert = (query: string, raw: string, org = 'default') => daemon.request('POST', convertPath(query, org), { token: admin, raw });
  const createOrg = async (slug: string) => {
    const res = await daemon.request('POST', '/orgs', { token: admin, body: { slug, name: slug } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };

  it('fetches the checks with the key, previews, then applies the same, keeping the ping UUIDs', async () => {
    const before = await checksSnapshot(daemon);
    const preview = await convert('source=healthchecks&dryRun=true', `${FULL}\n`);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ source: 'cron-monitor-api', dryRun: true, created: 4, skipped: 1 });
    expect(await checksSnapshot(daemon)).toBe(before);
    const request = api.requests.at(-1)!;
    expect(request).toMatchObject({ method: 'GET', path: '/hc/api/v3/checks/' });
    expect(request.headers['x-api-key']).toBe(FULL);

    const fetched = api.requests.length;
    const applied = await convert('source=cron-monitor-api', FULL);
    expect(applied.body).toMatchObject({ dryRun: false, created: 4, updated: 0, skipped: 1 });
    expect(applied.body.checks.map((c: { action: string }) => c.action)).toEqual(preview.body.checks.map((c: { action: string }) => c.action));
    const backup = await daemon.request('GET', '/orgs/default/checks/filesystem-backup', { token: admin });
    expect(backup.body.labels).toMatchObject({ 'svc-managed': 'cron-monitor-api' });
    // The UUID of the listing's ping_url (https://hc-ping.com/31365bce-…) is the check's ping token.
    expect(tokenOf(backup.body.pingUrl)).toBe('31365bce-8da9-4729-8ff3-aaa71d56b712');
    expect((await daemon.request('GET', '/ping/31365bce-8da9-4729-8ff3-aaa71d56b712')).status).toBe(200);

    const again = await convert('source=cron-monitor-api', FULL);
    // A key's monitors are fetched for every import, even of the same key: they may have changed.
    expect(api.requests.length).toBe(fetched + 2);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 4 });
    keyless([preview.body, applied.body, again.body, backup.body, await checksSnapshot(daemon)]);
  });

  it('imports the listing of a read-only key, warning that keeping the ping URLs needs the full key', async () => {
    await createOrg('read-only-key');
    const applied = await convert('source=cron-monitor-api', READ_ONLY, 'read-only-key');
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body).toMatchObject({ created: 2, skipped: 0 });
    const dropped = applied.body.warnings.filter((w: { code: string }) => w.code === 'SECRET_DROPPED');
    expect(dropped).toHaveLength(2);
    for (const warning of dropped) {
      expect(warning.field).toBe('unique_key');
      expect(warning.message).toMatch(/read-only API key.*import with the full API key/);
    }
    const check = await daemon.request('GET', '/orgs/read-only-key/checks/database-backup', { token: admin });
    expect(check.body.config).toMatchObject({ schedule: '15 5 * * *', timezone: 'UTC' });
    keyless(applied.body);
  });

  it('answers 502 UPSTREAM_FAILED saying the key was refused, and writes nothing', async () => {
    const before = await checksSnapshot(daemon);
    for (const dryRun of ['true', 'false']) {
      const res = await convert(`source=cron-monitor-api&dryRun=${dryRun}`, WRONG);
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('UPSTREAM_FAILED');
      expect(res.body.error.message).toBe(
        `The cron monitor's Management API at ${new URL(api.url).origin} refused the API key (HTTP 401): ` +
          "check that it is the API key of the project to import from (the project's Settings, API Access).",
      );
      expect(res.body.error.details).toMatchObject({ reason: 'token-refused', upstreamStatus: 401 });
      keyless(res.body);
    }
    const busy = await convert('source=cron-monitor-api', BUSY);
    expect(busy.status).toBe(502);
    expect(busy.body.error.details).toMatchObject({ reason: 'rate-limited', retryAfterSeconds: 20 });
    expect(busy.headers.get('retry-after')).toBe('20');
    keyless(busy.body);
    expect(await checksSnapshot(daemon)).toBe(before);
  });

  it('refuses a body that can be neither with 400 INVALID_IMPORT_INPUT, without calling the API', async () => {
    const calls = api.requests.length;
    for (const raw of ['', '  \n', 'two words']) {
      const res = await convert('source=cron-monitor-api', raw);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_IMPORT_INPUT');
      expect(res.body.error.message).toMatch(/expected an API key of the cron monitor's project .*--token-env.* checks listing/);
    }
    // The saved listing still converts without the network.
    const saved = await convert('source=cron-monitor-api&dryRun=true', JSON.stringify({ checks: [{ name: 'Saved', timeout: 3600, grace: 60 }] }));
    expect(saved.body).toMatchObject({ created: 1 });
    expect(api.requests.length).toBe(calls);
  });

  it('keeps the ping UUID of every heartbeat of a listing of more than 500 (the state rows are written in batches)', async () => {
    // A saved listing in the shape of GET /api/v3/checks/ (https://healthchecks.io/docs/api/).
    await createOrg('many-heartbeats');
    const uuid = (i: number) => `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`;
    const checks = Array.from({ length: 900 }, (_, i) => ({ name: `Job ${i}`, timeout: 3600, grace: 60, ping_url: `https://hc-ping.com/${uuid(i)}` }));
    const applied = await convert('source=cron-monitor-api', JSON.stringify({ checks }), 'many-heartbeats');
    expect(applied.status, JSON.stringify(applied.body).slice(0, 500)).toBe(200);
    expect(applied.body).toMatchObject({ created: 900 });
    expect(applied.body.warnings.filter((w: { code: string }) => w.code === 'SECRET_DROPPED')).toEqual([]);
    for (const i of [0, 499, 500, 899]) {
      const check = await daemon.request('GET', `/orgs/many-heartbeats/checks/job-${i}`, { token: admin });
      expect(tokenOf(check.body.pingUrl)).toBe(uuid(i));
    }
    // Each state row is first due at its check's own slot (daemon/runner/schedule.ts), from the
    // interval the import wrote: the rows are made from the converted checks, not read back.
    const states = await daemon.deps.db.kysely
      .selectFrom('check_states as s')
      .innerJoin('checks as c', 'c.uid', 's.check_uid')
      .select(['c.uid', 'c.interval_seconds', 's.next_run_at', 's.armed_at'])
      .where('c.slug', 'in', ['job-0', 'job-500', 'job-899'])
      .execute();
    expect(states).toHaveLength(3);
    for (const state of states) {
      expect(Number(state.next_run_at)).toBe(nextSlot(state.uid, Number(state.interval_seconds), Number(state.armed_at)));
    }
    expect((await daemon.request('GET', `/ping/${uuid(899)}`)).status).toBe(200);
  });

  it('never logs the key', () => {
    expect(daemon.logs.length).toBeGreaterThan(0);
    keyless(daemon.logs);
  });
});
