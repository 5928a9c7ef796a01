import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { validateCheck } from '../../../checks/index.js';
import { ImportInputError, type ConversionResult } from '../../../importers/converter.js';
import { convertHostedMonitorApi, type HostedMonitorData } from '../../../importers/betterstack/index.js';

// Whatever the API (or a saved copy) holds, the converter either refuses the data as a whole
// with an ImportInputError or returns checks the catalog accepts as they are.

const dir = new URL('../../fixtures/import/betterstack/', import.meta.url);
const accountText = readFileSync(new URL('account.json', dir), 'utf8');
const account = JSON.parse(accountText) as Required<HostedMonitorData>;

const MONITOR_KEYS = [
  'url',
  'pronounceable_name',
  'monitor_type',
  'monitor_group_id',
  'status',
  'policy_id',
  'required_keyword',
  'verify_ssl',
  'check_frequency',
  'call',
  'sms',
  'email',
  'push',
  'critical_alert',
  'http_method',
  'request_timeout',
  'recovery_period',
  'request_headers',
  'request_body',
  'follow_redirects',
  'remember_cookies',
  'paused_at',
  'ssl_expiration',
  'domain_expiration',
  'regions',
  'expected_status_codes',
  'port',
  'confirmation_period',
  'paused',
  'auth_username',
  'auth_password',
  'maintenance_from',
  'maintenance_to',
  'playwright_script',
  'environment_variables',
];
const HEARTBEAT_KEYS = ['url', 'name', 'period', 'grace', 'paused', 'paused_at', 'heartbeat_group_id', 'email', 'policy_id'];
const KINDS = [
  'status',
  'expected_status_code',
  'keyword',
  'keyword_absence',
  'ping',
  'tcp',
  'udp',
  'smtp',
  'pop',
  'imap',
  'dns',
  'playwright',
  'other',
  '__proto__',
  'constructor',
];

const loose: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    '',
    '0',
    '25,465,587',
    'abc,1',
    '65536',
    'https://example.com/',
    'example.com',
    '[::1]',
    '::1',
    '1.1.1.1',
    'https://u:p@example.com/',
    'get',
    'TRACE',
    '__proto__',
    null,
    true,
    false,
    -1,
    0,
    1e9,
    [{ name: 'Authorization', value: 'x' }],
    [
      { name: '__proto__', value: 'x' },
      { name: 'X-A', value: 1 },
    ],
    [200, '2xx', 'bad', 99],
  ),
  fc.string({ maxLength: 30 }),
  fc.integer({ min: -10, max: 10_000_000 }),
);

function resources(keys: readonly string[], base: fc.Arbitrary<Record<string, unknown>>) {
  return fc.array(
    fc.oneof(
      fc.record({
        id: fc.oneof(fc.string({ maxLength: 5 }), fc.nat()),
        type: fc.constant('x'),
        attributes: base.chain((b) => fc.dictionary(fc.constantFrom(...keys), loose, { maxKeys: 12 }).map((extra) => ({ ...b, ...extra }))),
      }),
      loose,
    ),
    { maxLength: 10 },
  );
}

function convertOrRefuse(input: HostedMonitorData | string): ConversionResult | 'refused' {
  try {
    return convertHostedMonitorApi(input);
  } catch (error) {
    if (error instanceof ImportInputError) return 'refused';
    throw error;
  }
}

function assertSound(outcome: ConversionResult | 'refused'): number {
  if (outcome === 'refused') return 0;
  for (const check of outcome.checks) {
    const validation = validateCheck(check);
    if (!validation.ok) throw new Error(`the catalog rejects ${JSON.stringify(check)}: ${JSON.stringify(validation.issues)}`);
    expect(validation.check).toEqual(check);
  }
  return outcome.checks.length;
}

describe('random data', () => {
  test('any JSON value is refused or converted', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => void assertSound(convertOrRefuse(JSON.stringify(value) ?? 'null'))),
      { numRuns: 300 },
    );
  });

  test('every cut of the fixture short of its end is refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: accountText.trimEnd().length - 1 }), (length) => {
        expect(convertOrRefuse(accountText.slice(0, length))).toBe('refused');
      }),
      { numRuns: 200 },
    );
  });

  test('resources with attributes of any shape convert item by item, into checks the catalog accepts', () => {
    const monitorBase = fc.record({
      monitor_type: fc.constantFrom(...KINDS),
      pronounceable_name: fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,15}$/),
      url: fc.constantFrom('https://example.com/health', 'example.com', '192.0.2.1', 'mail.example.com'),
      port: fc.constantFrom('443', '25', '53'),
      request_body: fc.constantFrom('example.com', ''),
    });
    const heartbeatBase = fc.record({ name: fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,15}$/), period: fc.integer({ min: 1, max: 100_000 }) });
    let produced = 0;
    fc.assert(
      fc.property(resources(MONITOR_KEYS, monitorBase), resources(HEARTBEAT_KEYS, heartbeatBase), (monitors, heartbeats) => {
        const outcome = convertOrRefuse({ monitors, heartbeats, monitorGroups: [], heartbeatGroups: [] });
        expect(outcome).not.toBe('refused');
        produced += assertSound(outcome);
      }),
      { numRuns: 300 },
    );
    expect(produced).toBeGreaterThan(500);
  });

  test('the fixture with one attribute of one resource replaced converts', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.nat(), fc.constantFrom(...MONITOR_KEYS, ...HEARTBEAT_KEYS), loose, (heartbeat, index, key, value) => {
        const copy = structuredClone(account);
        const list = (heartbeat ? copy.heartbeats : copy.monitors) as { attributes?: Record<string, unknown> }[];
        const resource = list[index % list.length]!;
        resource.attributes = { ...resource.attributes, [key]: value };
        const outcome = convertOrRefuse(copy);
        expect(outcome).not.toBe('refused');
        assertSound(outcome);
      }),
      { numRuns: 300 },
    );
  });
});
