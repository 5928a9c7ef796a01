import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { dump } from 'js-yaml';
import { convertConfigFile } from '../../../importers/gatus/index.js';
import { ImportInputError } from '../../../importers/converter.js';
import { convertOrRefuse, expectWellFormed } from '../shared/fixture-table.js';
import { mutatedText } from '../shared/mutations.js';

const FIXTURES = 'test/fixtures/import/gatus';
const texts = readdirSync(FIXTURES)
  .filter((file) => file.endsWith('.yaml'))
  .sort()
  .map((file) => readFileSync(`${FIXTURES}/${file}`, 'utf8'));

function refusal(input: string | Uint8Array): ImportInputError {
  try {
    convertConfigFile(input);
  } catch (error) {
    if (error instanceof ImportInputError) return error;
    throw error;
  }
  throw new Error('the input was accepted');
}

describe('input that is not a Gatus configuration', () => {
  test.each([
    ['empty', ''],
    ['a scalar', 'hello'],
    ['a list', '- a\n- b\n'],
    ['another tool', '{"stat": "ok", "monitors": []}'],
    ['broken YAML', 'endpoints:\n  - name: a\n   url: [\n'],
    ['two documents', 'endpoints: []\n---\nendpoints: []\n'],
    ['endpoints not a list', 'endpoints: {a: 1}\n'],
    ['a duplicate key', 'endpoints: []\nendpoints: []\n'],
    ['an unknown alias', 'endpoints: *nowhere\n'],
  ])('%s is refused', (_name, input) => {
    expect(refusal(input).message).toMatch(/^expected a Gatus YAML configuration with an `endpoints` list/);
  });

  test('bytes that are not UTF-8 are refused', () => {
    expect(refusal(new Uint8Array([0x65, 0x6e, 0xff, 0xfe])).message).toMatch(/not UTF-8/);
  });

  test('a YAML alias bomb is refused quickly', () => {
    let bomb = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    let previous = 'a';
    for (const name of 'bcdefghi') {
      bomb += `${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]\n`;
      previous = name;
    }
    bomb += 'endpoints: *i\n';
    const started = performance.now();
    expect(refusal(bomb).message).toMatch(/aliases expand to more than 1000000 nodes; refused$/);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  test.each([
    ['a recursive alias', 'a: &a [1, *a]\nendpoints: []\n'],
    ['deep nesting', `endpoints: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`],
    [
      'deep nesting through aliases',
      `${Array.from({ length: 30 }, (_, i) => `a${i}: &a${i} [[[[[${i === 0 ? '' : `*a${i - 1}`}]]]]]`).join('\n')}\nendpoints: *a29\n`,
    ],
  ])('%s is refused', (_name, input) => {
    expect(refusal(input).message).toMatch(/^expected a Gatus YAML configuration/);
  });

  test('an alias in its own merge adds nothing', () => {
    expect(convertConfigFile('a: &a {<<: *a, x: 1}\nendpoints: []\n')).toEqual({ checks: [], warnings: [], skipped: [] });
  });

  test("a merge key takes the keys of each mapping it names, the endpoint's own first", () => {
    const text = [
      'a: &a {interval: 30s, group: one}',
      'b: &b {group: two, enabled: false}',
      'endpoints:',
      '  - <<: [*a, *b]',
      '    name: merged',
      '    url: https://example.com',
      '    interval: 45s',
    ].join('\n');
    const [check] = convertConfigFile(text).checks;
    expect(check).toMatchObject({ intervalSeconds: 45, enabled: false, labels: { group: 'one' } });
  });

  test('an empty configuration has no checks', () => {
    expect(convertConfigFile('endpoints: []\n')).toEqual({ checks: [], warnings: [], skipped: [] });
  });

  test('thousands of endpoints merging one anchor are fine', () => {
    let text = 'x: &d\n  interval: 30s\n  conditions: ["[STATUS] == 200"]\nendpoints:\n';
    for (let i = 0; i < 3000; i++) text += `  - <<: *d\n    name: e${i}\n    url: https://e${i}.example.com\n`;
    const progress: number[] = [];
    const { checks } = convertConfigFile(text, { onProgress: (done, total) => progress.push(done / total) });
    expect(progress).toEqual([1, 2, 3, 4, 5, 6].map((sixth) => sixth / 6));
    expect(checks).toHaveLength(3000);
    expect(checks[2999]).toMatchObject({ slug: 'e2999', intervalSeconds: 30, config: { expectedStatusCodes: [200] } });
  });
});

// Text without `${`: Gatus substitutes `${...}` from its environment before it reads the YAML,
// so a random `${` can swallow the YAML around it (`${: {}`), in Gatus as here. Placeholders
// are tested on their own, whole.
const plain = (maxLength: number) => fc.string({ maxLength }).filter((text) => !text.includes('${'));

// Pieces of realistic endpoints, mixed with arbitrary values, so that random configurations
// reach deep into the converter rather than failing at the first field.
const scheme = fc.constantFrom(
  'https://',
  'http://',
  'tcp://',
  'udp://',
  'icmp://',
  'tls://',
  'starttls://',
  'grpc://',
  'grpcs://',
  'ws://',
  'wss://',
  'ssh://',
  'sctp://',
  'ftp://',
  '',
);
const host = fc.constantFrom('example.com', 'db.internal:5432', '192.0.2.1', '[2001:db8::1]:443', 'u:p@host.example:22', '${HOST}', 'a b', '');
const condition = fc.oneof(
  fc.constantFrom(
    '[STATUS] == 200',
    '[STATUS] < 300',
    '[STATUS] == any(200, 429)',
    '[STATUS] != pat(5*)',
    '[RESPONSE_TIME] < 300',
    '[BODY].status == UP',
    '[BODY] == pat(*ok*)',
    'len([BODY].items) > 0',
    'has([BODY].x) == true',
    '[CERTIFICATE_EXPIRATION] > 48h',
    '[CONNECTED] == false',
    '[DNS_RCODE] == NOERROR',
    '[BODY] == 1.2.3.4',
    '[IP] == 1.1.1.1',
    '[BODY].a == [BODY].b',
    '[BODY].n == pat(a*b)',
  ),
  plain(40),
  fc
    .tuple(fc.constantFrom('[STATUS]', '[BODY]', '[RESPONSE_TIME]', '[BODY].x'), fc.constantFrom('==', '!=', '<', '>='), plain(12))
    .map(([left, op, right]) => `${left} ${op} ${right}`),
);
// `<<` is YAML's merge key: a random one with a scalar value is not a configuration at all.
const key = (maxLength: number) => plain(maxLength).filter((k) => k !== '<<');
const anything = fc.oneof(plain(20), fc.integer(), fc.boolean(), fc.constant(null), fc.dictionary(key(8), plain(8), { maxKeys: 3 }));
const endpoint = fc.record(
  {
    name: fc.oneof(plain(30), fc.constantFrom('api', 'API', 'Api', '${NAME}'), anything),
    url: fc.oneof(
      fc.tuple(scheme, host, fc.constantFrom('', '/health', '?q=1')).map(([s, h, p]) => s + h + p),
      anything,
    ),
    interval: fc.oneof(fc.constantFrom('1s', '30s', '1h30m', '100h', '0', 'x', '${I}'), anything),
    enabled: anything,
    group: anything,
    method: fc.oneof(fc.constantFrom('GET', 'post', 'PROPFIND'), anything),
    body: anything,
    graphql: fc.boolean(),
    headers: fc.oneof(fc.dictionary(fc.constantFrom('Accept', 'Authorization', 'X-Api-Key', 'Bad Name', 'X'), anything, { maxKeys: 4 }), anything),
    conditions: fc.oneof(fc.array(condition, { maxLength: 6 }), anything),
    client: fc.oneof(
      fc.record(
        {
          insecure: anything,
          'ignore-redirect': anything,
          timeout: fc.oneof(fc.constantFrom('5s', '2m', '1ms'), anything),
          oauth2: anything,
          'proxy-url': anything,
        },
        { requiredKeys: [] },
      ),
      anything,
    ),
    dns: fc.oneof(
      fc.record({ 'query-type': fc.constantFrom('A', 'MX', 'ANY', ''), 'query-name': fc.constantFrom('example.com', '', 'bad name') }),
      fc.constant(undefined),
    ),
    ssh: fc.oneof(fc.record({ username: anything, password: anything }, { requiredKeys: [] }), fc.constant(undefined)),
    alerts: fc.oneof(
      fc.array(fc.record({ type: fc.constantFrom('slack', 'email'), 'failure-threshold': anything }, { requiredKeys: [] }), { maxLength: 3 }),
      anything,
    ),
    'extra-labels': fc.oneof(fc.dictionary(key(70), anything, { maxKeys: 4 }), anything),
  },
  { requiredKeys: [] },
);
const external = fc.record(
  { name: fc.oneof(plain(20), anything), token: anything, heartbeat: fc.oneof(fc.record({ interval: anything }), anything), enabled: anything },
  { requiredKeys: [] },
);
const config = fc.record(
  {
    endpoints: fc.array(fc.oneof(endpoint, anything), { maxLength: 8 }),
    'external-endpoints': fc.array(external, { maxLength: 3 }),
    alerting: fc.oneof(fc.constant(undefined), fc.dictionary(key(8), anything, { maxKeys: 2 })),
  },
  { requiredKeys: ['endpoints'] },
);

describe('random configurations', () => {
  test('never throw and never produce a check the catalog rejects', () => {
    fc.assert(
      fc.property(config, (value) => {
        const text = dump(value);
        const result = convertOrRefuse(convertConfigFile, text);
        expect(result).toBeDefined();
        if (result) expectWellFormed(result, 'configfile-monitor');
      }),
      { numRuns: 400 },
    );
  });

  test('conversion is deterministic', () => {
    fc.assert(
      fc.property(config, (value) => {
        const text = dump(value);
        expect(convertConfigFile(text)).toEqual(convertConfigFile(text));
      }),
      { numRuns: 100 },
    );
  });
});

describe('random and mutated text', () => {
  test('arbitrary text is converted or refused with ImportInputError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 300 })), (text) => {
        const result = convertOrRefuse(convertConfigFile, text);
        if (result) expectWellFormed(result, 'configfile-monitor');
      }),
      { numRuns: 300 },
    );
  });

  test('arbitrary bytes are converted or refused with ImportInputError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const result = convertOrRefuse(convertConfigFile, bytes);
        if (result) expectWellFormed(result, 'configfile-monitor');
      }),
      { numRuns: 300 },
    );
  });

  test('mutated fixtures are converted or refused with ImportInputError', () => {
    const tokens = [':', '- ', '  ', '\n', '*a', '&a ', '<<: ', '"', '${', '[STATUS] == ', '{', ']'];
    fc.assert(
      fc.property(mutatedText(texts, tokens), (text) => {
        const result = convertOrRefuse(convertConfigFile, text);
        if (result) expectWellFormed(result, 'configfile-monitor');
      }),
      { numRuns: 500 },
    );
  });

  test('truncated fixtures are converted or refused with ImportInputError', () => {
    for (const text of texts) {
      for (let length = 0; length < text.length; length += 7) {
        const result = convertOrRefuse(convertConfigFile, text.slice(0, length));
        if (result) expectWellFormed(result, 'configfile-monitor');
      }
    }
  });
});
