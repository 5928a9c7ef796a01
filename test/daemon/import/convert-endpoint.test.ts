import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { addMember } from '../../support/members.js';
import { checkCount, checksSnapshot, convertPath, gatusConfig, injectLabelFailure } from './helpers.js';

const MiB = 1024 * 1024;

describe.each(DATABASE_KINDS)('import convert endpoint [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { env: { SVC_CHECKS_PER_ORG_LIMIT: '0' } });
    admin = await daemon.adminToken();
  });
  afterAll(() => daemon.stop());

  const convert = (query: string, raw: string | Uint8Array, token = admin) => daemon.request('POST', convertPath(query), { token, raw });

  it('previews without writing, then applies with the same counts, warnings and actions', async () => {
    const before = await checksSnapshot(daemon);
    const preview = await convert('source=configfile-monitor&dryRun=true', gatusConfig());
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ source: 'configfile-monitor', dryRun: true, created: 2, updated: 0, unchanged: 0, skipped: 1 });
    expect(preview.body.checks).toEqual([
      { slug: 'api-health', name: 'API health', type: 'http', action: 'create' },
      { slug: 'database', name: 'Database', type: 'tcp', action: 'create' },
      { name: 'Queue', action: 'skip', reason: 'UNSUPPORTED_TYPE', message: expect.stringContaining('sctp') },
    ]);
    expect(preview.body.warnings.map((w: { code: string }) => w.code).sort()).toEqual(['SECRET_DROPPED', 'UNSUPPORTED_TYPE']);
    expect(preview.body.warnings.find((w: { code: string }) => w.code === 'SECRET_DROPPED')).toMatchObject({
      item: 'API health',
      slug: 'api-health',
      field: 'client.oauth2',
    });
    expect(await checksSnapshot(daemon), 'the dry run wrote nothing').toBe(before);

    const applied = await convert('source=configfile-monitor', gatusConfig());
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const { dryRun: _p, ...previewRest } = preview.body;
    const { dryRun, ...appliedRest } = applied.body;
    expect(dryRun).toBe(false);
    expect(appliedRest).toEqual(previewRest);

    const stored = await daemon.request('GET', '/orgs/default/checks/api-health', { token: admin });
    expect(stored.body).toMatchObject({ type: 'http', intervalSeconds: 30, labels: { group: 'core', 'svc-managed': 'configfile-monitor' } });
    const managed = await daemon.request('GET', '/orgs/default/checks?label=svc-managed=configfile-monitor', { token: admin });
    expect(managed.body.items.map((c: { slug: string }) => c.slug)).toEqual(['api-health', 'database']);
  });

  it('re-running an applied import creates nothing and duplicates nothing; a changed item is updated in place', async () => {
    const count = await checkCount(daemon);
    const before = await daemon.request('GET', '/orgs/default/checks/database', { token: admin });
    const again = await convert('source=configfile-monitor', gatusConfig());
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 2, skipped: 1 });
    expect(again.body.checks.slice(0, 2).map((c: { action: string }) => c.action)).toEqual(['unchanged', 'unchanged']);
    expect(await checkCount(daemon)).toBe(count);

    const preview = await convert('source=gatus&dryRun=1', gatusConfig({ extraGroup: 'storage' }));
    expect(preview.body).toMatchObject({ source: 'configfile-monitor', created: 0, updated: 1, unchanged: 1 });
    const changed = await convert('source=gatus&dryRun=false', gatusConfig({ extraGroup: 'storage' }));
    expect(changed.body).toMatchObject({ source: 'configfile-monitor', dryRun: false, created: 0, updated: 1, unchanged: 1 });
    expect(changed.body.checks[1]).toEqual({
      slug: 'database',
      name: 'Database',
      type: 'tcp',
      action: 'update',
      changes: [{ field: 'labels.group', from: 'data', to: 'storage' }],
    });
    const after = await daemon.request('GET', '/orgs/default/checks/database', { token: admin });
    expect(after.body.createdAt).toBe(before.body.createdAt);
    expect(after.body.labels).toEqual({ group: 'storage', 'svc-managed': 'configfile-monitor' });
    expect(await checkCount(daemon)).toBe(count);
    const filtered = await daemon.request('GET', '/orgs/default/checks?label=group=data', { token: admin });
    expect(filtered.body.items, 'the old label row is gone').toEqual([]);

    const slower = await convert('source=configfile-monitor', gatusConfig({ interval: '45s', extraGroup: 'storage' }));
    expect(slower.body).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    const core = await daemon.request('GET', '/orgs/default/checks?label=group=core', { token: admin });
    expect(core.body.items.map((c: { slug: string; intervalSeconds: number }) => [c.slug, c.intervalSeconds])).toEqual([['api-health', 45]]);
  });

  it('needs checks:write: a viewer gets 403 and nothing is written', async () => {
    const viewer = await addMember(daemon, `viewer-${kind}@example.com`, 'viewer');
    const before = await checksSnapshot(daemon);
    for (const query of ['source=configfile-monitor&dryRun=true', 'source=configfile-monitor']) {
      const res = await convert(query, gatusConfig({ interval: '5m' }), viewer.token);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    const user = await addMember(daemon, `user-${kind}@example.com`, 'user');
    expect((await convert('source=configfile-monitor&dryRun=true', gatusConfig(), user.token)).status).toBe(200);
    expect(await checksSnapshot(daemon)).toBe(before);
    expect((await daemon.request('POST', convertPath('source=configfile-monitor'), { raw: 'x' })).status).toBe(401);
  });

  it('requires a known source and a readable dryRun, listing the allowed values', async () => {
    for (const query of ['', 'source=', 'source=nagios', 'dryRun=true']) {
      const res = await convert(query, gatusConfig());
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.message).toContain(
        'configfile-monitor (gatus), cron-monitor-api (healthchecks), hosted-check-api (pingdom), hosted-monitor-api (betterstack), ' +
          'probe-exporter-config (blackbox-exporter), selfhosted-monitor-db (uptime-kuma), uptime-api-monitor (uptimerobot)',
      );
      expect(res.body.error.details.allowedSources).toEqual([
        'configfile-monitor',
        'cron-monitor-api',
        'hosted-check-api',
        'hosted-monitor-api',
        'probe-exporter-config',
        'selfhosted-monitor-db',
        'uptime-api-monitor',
      ]);
      expect(res.body.error.details.issues[0].path).toBe('source');
    }
    const dry = await convert('source=configfile-monitor&dryRun=maybe', gatusConfig());
    expect(dry.status).toBe(400);
    expect(dry.body.error.details.issues).toEqual([{ path: 'dryRun', message: 'must be true or false' }]);
    const upper = await convert('source=Uptime-Kuma&dryRun=true', '{"version":"1.23.16","notificationList":[],"monitorList":[]}');
    expect(upper.status, JSON.stringify(upper.body)).toBe(200);
    expect(upper.body).toMatchObject({ source: 'selfhosted-monitor-db', created: 0, skipped: 0, checks: [] });
  });

  it('refuses unreadable input with 400 INVALID_IMPORT_INPUT naming what was expected, and writes nothing', async () => {
    const before = await checksSnapshot(daemon);
    const cases: [string, string | Uint8Array][] = [
      ['configfile-monitor', 'endpoints: [unclosed'],
      ['configfile-monitor', new Uint8Array([0xff, 0xfe, 0x00, 0x81])],
      ['uptime-api-monitor', '{"stat": "ok", "monitors": [ {"id": 1'],
      ['cron-monitor-api', '{"checks": 42}'],
      ['selfhosted-monitor-db', new Uint8Array(Buffer.from('SQLite format 3\0 and then nothing else of a database'))],
      ['selfhosted-monitor-db', ''],
    ];
    for (const [source, body] of cases) {
      for (const dryRun of ['true', 'false']) {
        const res = await convert(`source=${source}&dryRun=${dryRun}`, body);
        expect(res.status, `${source}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.error.code).toBe('INVALID_IMPORT_INPUT');
        expect(res.body.error.message).toMatch(/expected/i);
        expect(res.body.error.details).toMatchObject({ source, expected: expect.any(String) });
      }
    }
    expect(await checksSnapshot(daemon)).toBe(before);
  });

  it('refuses a NUL character where svc keeps text, naming where, and keeps the one of a payload a check sends', async () => {
    const before = await checksSnapshot(daemon);
    // A check's name refuses control characters of its own; a request body sent as text is checked here.
    const endpoint = (name: string, url: string, body: string) =>
      `  - name: ${name}\n    url: ${url}\n    method: POST\n    body: "${body}"\n    conditions: ["[CONNECTED] == true"]\n`;
    const inBody = await convert(
      'source=configfile-monitor',
      `endpoints:\n${endpoint('Fine', 'tcp://db.example.com:5432', 'ok')}${endpoint('Post', 'https://api.example.com/', 'a\\0b')}`,
    );
    expect(inBody.status, JSON.stringify(inBody.body)).toBe(400);
    expect(inBody.body.error).toMatchObject({
      code: 'INVALID_IMPORT_INPUT',
      message: 'The configfile-monitor import holds a NUL character where svc keeps text (checks.1.config.body).',
    });
    // Past the first message of checks from the conversion worker (500), counted from the first check.
    const fine = Array.from({ length: 600 }, (_, i) => endpoint(`Fine ${i}`, `tcp://db${i}.example.com:5432`, 'ok')).join('');
    const later = await convert('source=configfile-monitor', `endpoints:\n${fine}${endpoint('Post', 'https://api.example.com/', 'a\\0b')}`);
    expect(later.status, JSON.stringify(later.body).slice(0, 300)).toBe(400);
    expect(later.body.error.message).toBe('The configfile-monitor import holds a NUL character where svc keeps text (checks.600.config.body).');
    expect(await checksSnapshot(daemon)).toBe(before);
    const payload = await convert('source=configfile-monitor&dryRun=true', `endpoints:\n${endpoint('Game', 'tcp://game.example.com:27015', 'query\\0')}`);
    expect(payload.status, JSON.stringify(payload.body)).toBe(200);
    expect(payload.body.created).toBe(1);
  });

  it('accepts a body of 64 MiB and answers 413 PAYLOAD_TOO_LARGE to one byte more', async () => {
    const before = await checksSnapshot(daemon);
    const atLimit = await convert('source=selfhosted-monitor-db&dryRun=true', new Uint8Array(64 * MiB).fill(0x20));
    expect(atLimit.status, JSON.stringify(atLimit.body).slice(0, 300)).toBe(400);
    expect(atLimit.body.error.code).toBe('INVALID_IMPORT_INPUT');
    const over = await convert('source=selfhosted-monitor-db', new Uint8Array(64 * MiB + 1).fill(0x20));
    expect(over.status).toBe(413);
    expect(over.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await checksSnapshot(daemon)).toBe(before);
  });

  it('writes nothing when the transaction fails halfway', async () => {
    const before = await checksSnapshot(daemon);
    const yaml = [
      'endpoints:',
      ...Array.from(
        { length: 1200 },
        (_, i) =>
          `  - name: Fleet ${i}\n    group: ${i === 1100 ? 'crash-here' : 'fleet'}\n    url: tcp://h${i}.example.com:22\n    conditions: ["[CONNECTED] == true"]`,
      ),
      '  - name: Database\n    group: moved\n    url: tcp://db.example.com:5432\n    conditions: ["[CONNECTED] == true"]',
    ].join('\n');
    const preview = await convert('source=configfile-monitor&dryRun=true', yaml);
    expect(preview.body).toMatchObject({ created: 1200, updated: 1 });

    const restore = await injectLabelFailure(daemon, 'crash-here');
    try {
      const res = await convert('source=configfile-monitor', yaml);
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe('INTERNAL');
      expect(JSON.stringify(res.body)).not.toMatch(/injected|check_labels|insert/i);
    } finally {
      await restore();
    }
    expect(await checksSnapshot(daemon), 'neither the new checks nor the update landed').toBe(before);
    const retried = await convert('source=configfile-monitor', yaml);
    expect(retried.body).toMatchObject({ created: 1200, updated: 1 });
  });
});
