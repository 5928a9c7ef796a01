import { describe, expect, test } from 'vitest';
import { parseCondition } from '../../../importers/gatus/condition.js';
import { parseGoDuration } from '../../../importers/gatus/go-duration.js';
import { containedText, globMatcher } from '../../../importers/gatus/glob.js';
import { jsonataPath } from '../../../importers/shared/json-path.js';
import { protectPlaceholders } from '../../../importers/gatus/placeholders.js';
import { load } from 'js-yaml';

describe('Go durations', () => {
  test.each([
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h30m', 5_400_000],
    ['1.5h', 5_400_000],
    ['300ms', 300],
    ['2m30s', 150_000],
    ['0', 0],
    ['48h', 172_800_000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });

  test.each(['', '30', 's', '1d', '-5s', '5 m', '1h 30m', 'abc'])('%j is not a duration', (text) => {
    expect(parseGoDuration(text)).toBeUndefined();
  });
});

describe('conditions', () => {
  test('splits on the first operator surrounded by spaces, <= before <', () => {
    expect(parseCondition('[STATUS] <= 299')).toMatchObject({ operator: '<=', left: { kind: 'placeholder', name: 'STATUS' } });
    expect(parseCondition('[BODY].a.b == x == y')).toMatchObject({
      operator: '==',
      left: { name: 'BODY', path: '.a.b' },
      right: { kind: 'literal', value: 'x == y' },
    });
    expect(parseCondition('[STATUS]==200')).toBeUndefined();
  });

  test('reads functions, patterns and lists', () => {
    expect(parseCondition('len([BODY].items) > 2')?.left).toEqual({ kind: 'function', fn: 'len', name: 'BODY', path: '.items' });
    expect(parseCondition('[STATUS] == any(200, 429)')?.right).toEqual({ kind: 'any', values: ['200', '429'] });
    expect(parseCondition('[BODY] == pat(*ok*)')?.right).toEqual({ kind: 'pattern', pattern: '*ok*' });
  });

  test('turns a condition written backwards', () => {
    expect(parseCondition('300 > [STATUS]')).toMatchObject({ left: { name: 'STATUS' }, operator: '<', right: { value: '300' } });
  });
});

describe('JSON paths', () => {
  test.each([
    ['', '$'],
    ['.status', 'status'],
    ['.data[0].id', 'data[0].id'],
    ['[0].id', '$[0].id'],
    ['.a.[1]', 'a[1]'],
    ['.my-key.x', '`my-key`.x'],
  ])('%j becomes %j', (path, expression) => {
    expect(jsonataPath(path)).toBe(expression);
  });

  test.each(['status', '.a`b', '.a[x]'])('%j cannot be expressed', (path) => {
    expect(jsonataPath(path)).toBeUndefined();
  });

  test('globs', () => {
    expect(containedText('*ok*')).toBe('ok');
    expect(containedText('ok*')).toBeUndefined();
    expect(containedText('*a*b*')).toBeUndefined();
    const matches = globMatcher('2*');
    expect(['200', '299', '301'].map(matches)).toEqual([true, true, false]);
    expect(globMatcher('a.(b)*')('a.(b)c')).toBe(true);
    expect(globMatcher('a.(b)*')('axbc')).toBe(false);
  });
});

describe('placeholders', () => {
  test('survive YAML constructs that would not parse them, and stay verbatim', () => {
    const source = 'a: {x: ${X}, y: "${Y}-z"}\n${KEY}: ${X}\nn: ${N}\n';
    const { text, restore } = protectPlaceholders(source);
    const restored = restore(load(text));
    expect(restored).toEqual({ a: { x: '${X}', y: '${Y}-z' }, '${KEY}': '${X}', n: '${N}' });
    expect(Object.keys(restored as object)).toEqual(['a', '${KEY}', 'n']);
  });

  test('the stand-in word never collides with the text', () => {
    const { text } = protectPlaceholders('svcenvplaceholder0z: ${A}');
    expect(text).toBe('svcenvplaceholder0z: svcenvplaceholderx0z');
  });

  // Gatus substitutes ${VAR} from its environment at start (config/config.go); svc does not. A URL
  // keeps them with a warning; a host, port or DNS name cannot, and the endpoint is skipped saying why.
  test('in a host, a port or a DNS name they skip the endpoint with their reason; in a URL they stay, with a warning', async () => {
    const { convertImport } = await import('../../../importers/index.js');
    const endpoints = [
      { name: 'db', url: 'tcp://${DB_HOST}:5432', conditions: ['[CONNECTED] == true'] },
      { name: 'port', url: 'tcp://db.example.com:${PORT}', conditions: ['[CONNECTED] == true'] },
      { name: 'zone', url: '127.0.0.1', dns: { 'query-name': '${ZONE}', 'query-type': 'A' }, conditions: ['[DNS_RCODE] == NOERROR'] },
      { name: 'web', url: 'https://${HOST}/health', conditions: ['[STATUS] == 200'] },
    ];
    const result = await convertImport('configfile-monitor', new TextEncoder().encode(JSON.stringify({ endpoints })));
    expect(result.skipped.map((item) => [item.item, item.reason])).toEqual([
      ['db', 'INVALID_ITEM'],
      ['port', 'INVALID_ITEM'],
      ['zone', 'INVALID_ITEM'],
    ]);
    expect(result.skipped[0]!.message).toMatch(/holds \$\{DB_HOST\}, which svc does not substitute/);
    expect(result.checks.map((check) => check.target)).toEqual(['https://${HOST}/health']);
    // A skipped endpoint says "kept verbatim" nowhere: only the kept check's placeholder is such a warning.
    expect(result.warnings.map((warning) => [warning.item, warning.code, warning.field])).toEqual([
      ['db', 'INVALID_ITEM', 'url'],
      ['port', 'INVALID_ITEM', 'url'],
      ['zone', 'INVALID_ITEM', 'dns.query-name'],
      ['web', 'UNSUPPORTED_SETTING', 'url'],
    ]);
  });
});

// Gatus's [BODY] of a DNS endpoint is the last answer (client/client.go QueryDNS, v5.36): a
// condition on it is compared with one answer, where the check looks among all of them.
describe('[BODY] of a DNS endpoint', () => {
  const dnsEndpoint = (conditions: string[]) => ({ name: 'mx', url: '127.0.0.1', dns: { 'query-name': 'example.com', 'query-type': 'MX' }, conditions });
  const convert = async (conditions: string[]) => {
    const { convertImport } = await import('../../../importers/index.js');
    return convertImport('configfile-monitor', new TextEncoder().encode(JSON.stringify({ endpoints: [dnsEndpoint(conditions)] })));
  };

  test('one value: the check looks among all answers, with a warning that Gatus looked at the last', async () => {
    const result = await convert(['[BODY] == mx1.example.com.']);
    expect(result.checks[0]!.config.expectedValues).toEqual(['mx1.example.com.']);
    expect(result.warnings).toMatchObject([{ code: 'UNSUPPORTED_SETTING', field: 'conditions', message: expect.stringMatching(/last answer only/) }]);
  });

  test('two values: down on every check in Gatus, said so', async () => {
    const result = await convert(['[BODY] == mx1.example.com.', '[BODY] == mx2.example.com.']);
    expect(result.warnings).toMatchObject([{ code: 'UNSUPPORTED_SETTING', field: 'conditions', message: expect.stringMatching(/down on every check/) }]);
  });
});

describe('[STATUS] conditions', () => {
  // The codes a set of [STATUS] conditions accepts are worked out once per set of texts
  // (importers/gatus/condition-effects.ts) and reused: each endpoint still gets its own set's codes.
  const endpoint = (name: string, conditions: string[]) => ({ name, url: `https://${name}.example.com`, conditions });
  const codesOf = async (endpoints: ReturnType<typeof endpoint>[]) => {
    const { convertImport } = await import('../../../importers/index.js');
    const result = await convertImport('configfile-monitor', new TextEncoder().encode(JSON.stringify({ endpoints })));
    return result.checks.map((check) => (check.config as { expectedStatusCodes: unknown }).expectedStatusCodes);
  };

  test('each endpoint gets the codes of its own conditions, however many share them', async () => {
    const range = ['[STATUS] >= 200', '[STATUS] < 300'];
    const codes = await codesOf([
      endpoint('a', range),
      endpoint('b', ['[STATUS] >= 200']),
      endpoint('c', range),
      endpoint('d', ['[STATUS] < 300', '[STATUS] >= 200']),
      endpoint('e', ['[STATUS] >= 200', '[BODY] == ok', '[STATUS] < 300']),
      endpoint('f', ['[STATUS] >= 200', '[STATUS] < 300', '[STATUS] != 204']),
    ]);
    expect(codes).toEqual([['200-299'], ['200-599'], ['200-299'], ['200-299'], ['200-299'], ['200-203', '205-299']]);
    // A later conversion in the same process: the same set, and a set that begins like one seen before.
    expect(await codesOf([endpoint('g', ['[STATUS] >= 200', '[STATUS] < 300', '[STATUS] != 299']), endpoint('h', range)])).toEqual([['200-298'], ['200-299']]);
  });
});
