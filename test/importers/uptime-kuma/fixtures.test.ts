import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { validateCheck } from '../../../checks/index.js';
import type { ConversionResult } from '../../../importers/converter.js';
import { convertSelfhostedMonitorDb, prepareSelfhostedMonitorDb } from '../../../importers/uptime-kuma/index.js';
import { FIXTURE_DIR, buildFixtureDatabase } from '../../fixtures/import/uptime-kuma/build-database.js';
import { expectedAt, expectFixture } from '../shared/fixture-table.js';

// Each fixture is converted and compared with its expected-result file: every check and every
// warning. Set UPDATE_IMPORT_FIXTURES=1 to rewrite the expected files after a deliberate change, then
// review the diff.

interface FixtureCase {
  readonly name: string;
  readonly expected: string;
  input(): Promise<Uint8Array | string>;
}

const fixture = (name: string) => new URL(name, FIXTURE_DIR);

const CASES: FixtureCase[] = [
  { name: '2.0 database', expected: 'kuma-2.0.expected.json', input: () => buildFixtureDatabase('2.0', 'kuma-2.0.sql') },
  { name: '2.5 database', expected: 'kuma-2.5.expected.json', input: () => buildFixtureDatabase('2.5', 'kuma-2.5.sql') },
  // Bytes, as the API receives it, with true/false booleans.
  { name: '1.23 backup', expected: 'backup-1.23.expected.json', input: async () => new Uint8Array(readFileSync(fixture('backup-1.23.json'))) },
  // Text, with 1/0 booleans, no tags and no retry intervals.
  { name: '1.6 backup', expected: 'backup-1.6.expected.json', input: async () => readFileSync(fixture('backup-1.6.json'), 'utf8') },
];

// Every secret written into the fixtures; none may reach the converted checks or the warnings.
const SECRETS = [
  'abc.def',
  'hunter2',
  'client-secret-value',
  's3cr',
  'Pa55',
  'app:pw',
  'cachepass',
  'oraclepass',
  'mqttpass',
  'kafkapass',
  'rabbitpass',
  't0ken',
  'public',
  'radiuspass',
  'sharedsecret',
  'deploy:pw',
  'Xk2pQ9',
  'proxypass',
  'eyJhbGciOi',
  'k-123',
  'BEGIN PRIVATE KEY',
  'ntlmpass',
  'password=pw',
  'shop-pass',
  'session=abc123',
  'a1B2c3D4e5',
  'An4lytics',
  'mqtt-pass',
  'radius-pass',
  'Fin4nce',
  'hooks.slack',
  'mailpass',
  '123:abc',
  'shoppass',
];

beforeAll(async () => {
  await prepareSelfhostedMonitorDb();
});

describe.each(CASES)('$name', ({ expected, input }) => {
  let result: ConversionResult;

  beforeAll(async () => {
    result = convertSelfhostedMonitorDb(await input());
  });

  test('produces exactly the expected checks, warnings and skipped items', () => {
    expectFixture(expectedAt(fileURLToPath(fixture(expected))), result);
  });

  test('every check is one the catalog accepts as it is, managed by this source', () => {
    for (const check of result.checks) {
      expect(validateCheck(check)).toEqual({ ok: true, check });
      expect(check.labels['svc-managed']).toBe('selfhosted-monitor-db');
    }
  });

  test('slugs are unique and every warning of an imported item names its slug', () => {
    const slugs = result.checks.map((check) => check.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    const skipped = new Set(result.skipped.map((item) => item.item));
    for (const warning of result.warnings) {
      if (warning.slug !== undefined) expect(slugs).toContain(warning.slug);
      else if (warning.code !== 'NOTIFICATIONS_DROPPED') expect(skipped).toContain(warning.item);
    }
  });

  test('no secret of the export carries over, but push tokens are kept as ping tokens, outside the checks', () => {
    const { pingTokens, ...rest } = result;
    const text = JSON.stringify(rest);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    for (const token of Object.values(pingTokens ?? {})) expect(['Xk2pQ9', 'a1B2c3D4e5']).toContain(token);
  });

  test('converting again gives the same result', async () => {
    expect(convertSelfhostedMonitorDb(await input())).toEqual(result);
  });
});
