import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { convertUptimeApiMonitor } from '../../../importers/uptimerobot/index.js';
import { convertOrRefuse, expectWellFormed } from '../shared/fixture-table.js';
import { mutatedText } from '../shared/mutations.js';

const FIXTURES = 'test/fixtures/import/uptimerobot';
const texts = readdirSync(FIXTURES)
  .filter((file) => file.endsWith('.json') && !file.endsWith('.expected.json'))
  .sort()
  .map((file) => readFileSync(`${FIXTURES}/${file}`, 'utf8'));

// Each field in every encoding the API uses for it, plus arbitrary values.
const anything = fc.oneof(fc.string({ maxLength: 12 }), fc.integer({ min: -5, max: 100_000 }), fc.boolean(), fc.constant(null), fc.constant(''), fc.double());
const codeOf = (...codes: number[]) => fc.oneof(fc.constantFrom(...codes), fc.constantFrom(...codes).map(String), fc.constantFrom('', null), anything);
const url = fc.oneof(
  fc.constantFrom('https://example.com', 'example.com', '192.0.2.1', 'tcp://db.example.com:5432', '2001:db8::1', 'http://u:p@x.example', '', 'not a url'),
  fc.string({ maxLength: 20 }),
);
const v2Monitor = fc.record(
  {
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 6 })),
    friendly_name: fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('API', 'api', 'Api'), anything),
    url,
    type: codeOf(1, 2, 3, 4, 5, 6),
    sub_type: codeOf(1, 2, 3, 4, 5, 6, 99),
    port: codeOf(22, 443, 70000),
    keyword_type: codeOf(1, 2),
    keyword_case_type: codeOf(0, 1),
    keyword_value: anything,
    http_method: codeOf(1, 2, 3, 4, 5, 6, 7),
    post_type: codeOf(1, 2),
    post_value: fc.oneof(anything, fc.dictionary(fc.string({ maxLength: 5 }), anything, { maxKeys: 3 })),
    post_content_type: codeOf(0, 1),
    http_username: anything,
    http_password: anything,
    http_auth_type: codeOf(1, 2),
    interval: codeOf(5, 60, 300, 100_000),
    timeout: codeOf(1, 30, 60),
    status: codeOf(0, 1, 2, 8, 9),
    custom_http_headers: fc.oneof(fc.dictionary(fc.constantFrom('Accept', 'Authorization', 'Bad Name', 'X'), anything, { maxKeys: 3 }), anything),
    alert_contacts: fc.oneof(fc.array(fc.record({ id: fc.string() }), { maxLength: 2 }), anything),
  },
  { requiredKeys: [] },
);
const v3Monitor = fc.record(
  {
    id: fc.integer(),
    friendlyName: fc.oneof(fc.string({ maxLength: 30 }), anything),
    url,
    type: fc.oneof(fc.constantFrom('HTTP', 'KEYWORD', 'PING', 'PORT', 'HEARTBEAT', 'DNS', 'API', 'UDP', 'http', 'OTHER'), anything),
    status: fc.oneof(fc.constantFrom('UP', 'PAUSED', 'DOWN'), anything),
    interval: anything,
    timeout: anything,
    port: anything,
    keywordType: fc.oneof(fc.constantFrom('ALERT_EXISTS', 'ALERT_NOT_EXISTS'), anything),
    keywordCaseType: anything,
    keywordValue: anything,
    httpMethodType: fc.oneof(fc.constantFrom('GET', 'post', 'TRACE'), anything),
    successHttpResponseCodes: fc.oneof(fc.array(fc.oneof(fc.constantFrom('2xx', '3xx', '404', '9xx'), anything), { maxLength: 4 }), anything),
    gracePeriod: anything,
    responseTimeThreshold: anything,
    config: fc.oneof(
      fc.record(
        {
          sslExpirationPeriodDays: fc.array(anything, { maxLength: 3 }),
          dnsRecords: fc.dictionary(fc.constantFrom('a', 'aaaa', 'mx', 'xyz'), fc.array(anything, { maxLength: 2 }), { maxKeys: 2 }),
          apiAssertions: fc.record({
            logic: fc.constantFrom('AND', 'OR'),
            checks: fc.array(
              fc.record({ property: fc.oneof(fc.constantFrom('status_code', '$.a', '$[0].b', '$.`x'), anything), comparison: anything, target: anything }),
              { maxLength: 3 },
            ),
          }),
          udp: fc.record({ payload: anything, packetLossThreshold: anything }, { requiredKeys: [] }),
        },
        { requiredKeys: [] },
      ),
      anything,
    ),
  },
  { requiredKeys: [] },
);
const listing = fc.oneof(
  fc.record({ stat: fc.constant('ok'), monitors: fc.array(fc.oneof(v2Monitor, anything), { maxLength: 8 }) }),
  fc.record({ data: fc.array(fc.oneof(v3Monitor, anything), { maxLength: 8 }), nextLink: fc.oneof(fc.constant(null), fc.string()) }),
  fc.array(fc.oneof(v2Monitor, v3Monitor), { maxLength: 6 }),
);

describe('random listings', () => {
  test('never throw and never produce a check the catalog rejects', () => {
    fc.assert(
      fc.property(listing, (value) => {
        const result = convertOrRefuse(convertUptimeApiMonitor, JSON.stringify(value));
        expect(result).toBeDefined();
        if (result) expectWellFormed(result, 'uptime-api-monitor');
      }),
      { numRuns: 500 },
    );
  });

  test('conversion is deterministic', () => {
    fc.assert(
      fc.property(listing, (value) => {
        const text = JSON.stringify(value);
        expect(convertUptimeApiMonitor(text)).toEqual(convertUptimeApiMonitor(text));
      }),
      { numRuns: 100 },
    );
  });

  test('arbitrary JSON values are converted or refused with ImportInputError', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const result = convertOrRefuse(convertUptimeApiMonitor, JSON.stringify(value));
        if (result) expectWellFormed(result, 'uptime-api-monitor');
      }),
      { numRuns: 300 },
    );
  });
});

describe('random and damaged text', () => {
  test('arbitrary text and bytes are converted or refused with ImportInputError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.uint8Array({ maxLength: 200 })), (input) => {
        const result = convertOrRefuse(convertUptimeApiMonitor, input);
        if (result) expectWellFormed(result, 'uptime-api-monitor');
      }),
      { numRuns: 300 },
    );
  });

  test('every truncation of every fixture is refused cleanly', () => {
    for (const text of texts) {
      const end = text.trimEnd().length;
      for (let length = 0; length < end; length += 5) {
        expect(convertOrRefuse(convertUptimeApiMonitor, text.slice(0, length))).toBeUndefined();
      }
    }
  });

  test('mutated fixtures are converted or refused with ImportInputError', () => {
    const tokens = ['null', '""', '"1"', '0', '[]', '{}', ',', '"x":1,'];
    fc.assert(
      fc.property(mutatedText(texts, tokens), (text) => {
        const result = convertOrRefuse(convertUptimeApiMonitor, text);
        if (result) expectWellFormed(result, 'uptime-api-monitor');
      }),
      { numRuns: 500 },
    );
  });
});
