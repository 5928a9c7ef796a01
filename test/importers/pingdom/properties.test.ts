import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { convertHostedCheckApi } from '../../../importers/pingdom/index.js';
import { convertOrRefuse, expectWellFormed } from '../shared/fixture-table.js';

// Whatever the API (or a saved copy) holds, the converter refuses the input as a whole with an
// ImportInputError or returns checks the catalog accepts as they are; every check it reads is
// either a check or a skipped item.

const details = JSON.parse(readFileSync('test/fixtures/import/pingdom/details.json', 'utf8')) as { check: Record<string, unknown> }[];
const detailsText = readFileSync('test/fixtures/import/pingdom/details.json', 'utf8');

const CHECK_KEYS = [
  'resolution',
  'status',
  'paused',
  'tags',
  'ipv6',
  'verify_certificate',
  'probe_filters',
  'responsetime_threshold',
  'sendnotificationwhendown',
  'integrationids',
  'custom_message',
  'hostname',
  'id',
];
const TYPE_KEYS = [
  'url',
  'encryption',
  'port',
  'shouldcontain',
  'shouldnotcontain',
  'postdata',
  'requestheaders',
  'stringtosend',
  'stringtoexpect',
  'expectedip',
  'nameserver',
  'auth',
  'ssl_down_days_before',
  'username',
  'password',
];
const TYPES = ['http', 'httpcustom', 'tcp', 'ping', 'dns', 'udp', 'smtp', 'pop3', 'imap', 'transaction', 'other', '__proto__'];

const loose: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom('', 'paused', 'up', 'example.com', '::1', 'a b', '/x', 'x'.repeat(2000), null, true, false, -1, 0, 1, 1440, 1e9, 70000),
  fc.constantFrom([{ name: 'a', type: 'u' }], [{ name: '' }, 'b'], { 'X-Token': 'x', 'User-Agent': 'u' }, ['region: EU']),
);

const check = fc.record({
  name: fc.oneof(fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,15}$/), loose),
  hostname: fc.constantFrom('example.com', '192.0.2.1', '', 'a..b', 'mail.example.com'),
  kind: fc.constantFrom(...TYPES),
  detailed: fc.boolean(),
  // Not `id`: the listing and the details are matched by it.
  fields: fc.dictionary(fc.constantFrom(...CHECK_KEYS.filter((key) => key !== 'id')), loose, { maxKeys: 5 }),
  settings: fc.dictionary(fc.constantFrom(...TYPE_KEYS), loose, { maxKeys: 5 }),
});

describe('random data', () => {
  test('checks of any shape convert item by item into checks the catalog accepts', () => {
    let produced = 0;
    fc.assert(
      fc.property(fc.array(check, { maxLength: 8 }), (checks) => {
        const listing = checks.map((c, id) => ({ id, name: c.name, hostname: c.hostname, type: c.kind, ...c.fields }));
        const detailList = checks.flatMap((c, id) =>
          c.detailed ? [{ check: { id, name: c.name, hostname: c.hostname, type: { [c.kind]: c.settings } } }] : [],
        );
        const result = convertOrRefuse(convertHostedCheckApi, JSON.stringify({ checks: listing, details: detailList }));
        expect(result).toBeDefined();
        expectWellFormed(result!, 'hosted-check-api');
        expect(result!.checks.length + result!.skipped.length).toBe(checks.length);
        produced += result!.checks.length;
      }),
      { numRuns: 300 },
    );
    expect(produced).toBeGreaterThan(200);
  });

  test('any JSON value is refused or converted', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = convertOrRefuse(convertHostedCheckApi, JSON.stringify(value) ?? 'null');
        if (result) expectWellFormed(result, 'hosted-check-api');
      }),
      { numRuns: 300 },
    );
  });

  test('every cut of the fixture short of its end is refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: detailsText.trimEnd().length - 1 }), (length) => {
        expect(convertOrRefuse(convertHostedCheckApi, detailsText.slice(0, length))).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  test('a detail with one field replaced still converts', () => {
    fc.assert(
      fc.property(fc.nat(), fc.constantFrom(...CHECK_KEYS, 'type', 'name'), loose, (index, key, value) => {
        const copy = structuredClone(details);
        copy[index % copy.length].check[key] = value;
        const result = convertOrRefuse(convertHostedCheckApi, JSON.stringify(copy));
        expect(result).toBeDefined();
        expectWellFormed(result!, 'hosted-check-api');
      }),
      { numRuns: 300 },
    );
  });
});
