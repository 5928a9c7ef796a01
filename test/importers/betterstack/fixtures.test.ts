import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { validateCheck } from '../../../checks/index.js';
import { ImportInputError, type ConversionResult } from '../../../importers/converter.js';
import { convertHostedMonitorApi, type HostedMonitorData } from '../../../importers/betterstack/index.js';
import { expectedAt, expectFixture } from '../shared/fixture-table.js';

// Each fixture (plain data as the adapter returns it, or a saved page) is converted and
// compared with its expected-result file: every check and every warning. Set
// UPDATE_IMPORT_FIXTURES=1 to rewrite the expected files after a deliberate change, then review the diff.

const dir = new URL('../../fixtures/import/betterstack/', import.meta.url);
const fixture = (name: string) => new URL(name, dir);

const CASES = [
  // The adapter's output as an object, the way the daemon hands it over.
  { name: 'account (plain data)', file: 'account.json', expected: 'account.expected.json', as: 'object' },
  // One saved page of /api/v2/monitors, as bytes.
  { name: 'single page (bytes)', file: 'single-page.json', expected: 'single-page.expected.json', as: 'bytes' },
] as const;

// Every secret written into the fixtures; none may reach the result.
const SECRETS = ['sk_live_abc', '0rders-pass', 'hunter2', 'Xk2pQ9abc', 'Zz9', 'pw-in-scenario', 'process.env.PASSWORD'];

function load(file: string, as: 'object' | 'bytes'): HostedMonitorData | Uint8Array {
  const bytes = readFileSync(fixture(file));
  return as === 'bytes' ? new Uint8Array(bytes) : (JSON.parse(bytes.toString('utf8')) as HostedMonitorData);
}

describe.each(CASES)('$name', ({ file, expected, as }) => {
  let result: ConversionResult;

  beforeAll(() => {
    result = convertHostedMonitorApi(load(file, as));
  });

  test('produces exactly the expected checks, warnings and skipped items', () => {
    expectFixture(expectedAt(fileURLToPath(fixture(expected))), result);
  });

  test('every check is one the catalog accepts as it is, managed by this source', () => {
    for (const check of result.checks) {
      expect(validateCheck(check)).toEqual({ ok: true, check });
      expect(check.labels['svc-managed']).toBe('hosted-monitor-api');
    }
  });

  test('no secret carries over', () => {
    const text = JSON.stringify(result);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
  });

  test('the same data as JSON text converts the same', () => {
    expect(convertHostedMonitorApi(readFileSync(fixture(file), 'utf8'))).toEqual(result);
  });
});

describe('input that is not the fetched data', () => {
  test.each([
    ['empty text', ''],
    ['truncated JSON', '{"monitors": [{"id": "1", '],
    ['a list of pages without data', '[{"errors": [{"status": "401"}]}]'],
    ['an object without the lists', '{"errors": [{"status": "401"}]}'],
    ['monitors that are not a list', '{"monitors": {"id": "1"}}'],
  ])('%s is an ImportInputError', (_, input) => {
    expect(() => convertHostedMonitorApi(input)).toThrow(ImportInputError);
  });

  test('the listings saved page by page (a list of pages, resources sorted by their type) convert as the fetched data', () => {
    const data = JSON.parse(readFileSync(fixture('account.json'), 'utf8')) as Record<string, unknown[]>;
    const page = (items: unknown[] = []) => ({ data: items, pagination: { next: null } });
    const pages = [page(data.monitors), page(data.heartbeats), page(data.monitorGroups), page(data.heartbeatGroups)];
    expect(convertHostedMonitorApi(JSON.stringify(pages))).toEqual(convertHostedMonitorApi(data as unknown as HostedMonitorData));
    // The heartbeats listing alone is read as heartbeats, not as monitors.
    const heartbeats = convertHostedMonitorApi(JSON.stringify(page(data.heartbeats)));
    expect(heartbeats.checks.length).toBeGreaterThan(0);
    expect(heartbeats.checks.every((check) => check.type === 'heartbeat')).toBe(true);
  });

  test('empty lists convert to nothing', () => {
    expect(convertHostedMonitorApi({ monitors: [], heartbeats: [] })).toEqual({ checks: [], warnings: [], skipped: [] });
  });

  test('progress is reported up to the number of resources', () => {
    const calls: [number, number][] = [];
    convertHostedMonitorApi(load('account.json', 'object'), { onProgress: (done, total) => calls.push([done, total]) });
    expect(calls.at(-1)).toEqual([21, 21]);
  });
});
