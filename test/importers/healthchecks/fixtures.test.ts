import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { validateCheck } from '../../../checks/index.js';
import { ImportInputError } from '../../../importers/converter.js';
import { convertCronMonitorApi } from '../../../importers/healthchecks/index.js';
import { expectedAt, expectFixture } from '../shared/fixture-table.js';

// The fixtures are composed from the Management API v3 docs of Healthchecks.io (see the README
// beside them). Each is converted and compared with its expected-result file: every check and
// every warning. Set UPDATE_IMPORT_FIXTURES=1 to rewrite the expected files, then review the diff.

const dir = new URL('../../fixtures/import/healthchecks/', import.meta.url);
const fixture = (name: string) => new URL(name, dir);
const load = (name: string) => new Uint8Array(readFileSync(fixture(name)));

describe.each([
  { file: 'checks.json', expected: 'checks.expected.json' },
  { file: 'read-only.json', expected: 'read-only.expected.json' },
])('$file', ({ file, expected }) => {
  const result = convertCronMonitorApi(load(file));

  test('produces exactly the expected checks, warnings and skipped items', () => {
    expectFixture(expectedAt(fileURLToPath(fixture(expected))), result);
  });

  test('every check is a heartbeat the catalog accepts as it is, managed by this source', () => {
    for (const check of result.checks) {
      expect(validateCheck(check)).toEqual({ ok: true, check });
      expect(check).toMatchObject({ type: 'heartbeat', labels: { 'svc-managed': 'cron-monitor-api' } });
    }
  });
});

describe('the mapping', () => {
  const result = convertCronMonitorApi(load('checks.json'));
  const bySlug = Object.fromEntries(result.checks.map((check) => [check.slug, check]));

  test('simple checks get a period, cron checks their schedule and time zone; tags become labels', () => {
    expect(bySlug['filesystem-backup']).toMatchObject({
      config: { periodSeconds: 3600, graceSeconds: 600 },
      labels: { backup: '', fs: '' },
      description: 'Runs incremental backup every hour',
    });
    expect(bySlug['database-backup'].config).toMatchObject({ schedule: '15 5 * * *', timezone: 'UTC', graceSeconds: 1200 });
    expect(bySlug['nightly-report'].config).toMatchObject({ schedule: '0 2 * * *', timezone: 'Europe/Berlin', graceSeconds: 300 });
    expect(bySlug['archive-upload']).toMatchObject({ enabled: false, config: { periodSeconds: 2_678_400, graceSeconds: 604_800 } });
  });

  test('each check keeps the UUID of its ping URL as its ping token, outside the check', () => {
    expect(result.pingTokens).toEqual({
      'filesystem-backup': '31365bce-8da9-4729-8ff3-aaa71d56b712',
      'database-backup': '803f680d-e89b-492b-82ef-2be7b774a92d',
      'nightly-report': '5bf66975-d4c7-4bf5-bcc8-b8d8a82ea278',
      'archive-upload': '6a5c7c2e-1b0e-4a7b-9f62-3f0d1d8e2c41',
    });
    expect(JSON.stringify(result.checks)).not.toContain('31365bce');
  });

  test('says what does not carry over', () => {
    const codes = (item: string) => result.warnings.filter((warning) => warning.item === item).map((warning) => `${warning.code} ${warning.field}`);
    expect(codes('Filesystem Backup')).toEqual(['UNSUPPORTED_SETTING start_kw', 'NOTIFICATIONS_DROPPED channels']);
    expect(codes('Archive upload')).toEqual(['VALUE_ADJUSTED timeout', 'UNSUPPORTED_SETTING methods', 'UNSUPPORTED_SETTING manual_resume']);
    expect(result.skipped).toEqual([{ item: 'Month-end billing', reason: 'UNSUPPORTED_TYPE', message: expect.stringContaining('OnCalendar') }]);
  });

  test("a read-only key's listing imports without ping tokens, saying the full key keeps them", () => {
    const readOnly = convertCronMonitorApi(load('read-only.json'));
    expect(readOnly.checks).toHaveLength(2);
    expect(readOnly.pingTokens).toBeUndefined();
    expect(readOnly.warnings.filter((warning) => warning.field === 'unique_key').map((warning) => warning.message)).toEqual([
      expect.stringContaining('read-only API key'),
      expect.stringContaining('read-only API key'),
    ]);
  });

  // The tool keeps a check's description as a TextField without a length (hc/api/models.py,
  // `desc = models.TextField(blank=True)`): a long one is cut, and the check still imported.
  test('a description longer than the catalog takes is cut with a warning, not the check skipped', () => {
    const listing = { checks: [{ name: 'Nightly', desc: `${'Runbook: '.repeat(300)}\u0007`, grace: 300, timeout: 86400 }] };
    const converted = convertCronMonitorApi(JSON.stringify(listing));
    expect(converted.skipped).toEqual([]);
    expect(Array.from(converted.checks[0].description ?? '')).toHaveLength(2000);
    expect(converted.warnings.map((warning) => `${warning.code} ${warning.field}: ${warning.message}`)).toContain(
      'VALUE_ADJUSTED desc: the description was cut to 2000 characters',
    );
  });

  test('input that is not a checks listing is refused as a whole', () => {
    for (const input of ['', 'not json', '{"monitors": []}', '42']) expect(() => convertCronMonitorApi(input)).toThrow(ImportInputError);
    expect(convertCronMonitorApi('[]').checks).toEqual([]);
  });
});
